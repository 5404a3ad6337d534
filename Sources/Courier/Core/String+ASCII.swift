import Foundation

extension String {
    /// ASCII case-insensitive equality, for header names (no Foundation, no allocation).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        // Both strings' bytes compared in place (a `zip` of the two UTF-8 views costs some
        // hundreds of instructions, and header names are compared on every request).
        let inPlace = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                Self.equalIgnoringASCIICase(UnsafeRawBufferPointer(mine), UnsafeRawBufferPointer(theirs))
            }
        }
        if let inPlace, let equal = inPlace { return equal }
        guard utf8.count == other.utf8.count else { return false }
        for (a, b) in zip(utf8, other.utf8) where a != b {
            let lowerA = (a >= 65 && a <= 90) ? a | 0x20 : a
            let lowerB = (b >= 65 && b <= 90) ? b | 0x20 : b
            if lowerA != lowerB { return false }
        }
        return true
    }

    private static func equalIgnoringASCIICase(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        var index = 0
        while index < a.count {
            let x = a[index]
            let y = b[index]
            if x != y {
                let lowerX = (x >= 65 && x <= 90) ? x | 0x20 : x
                let lowerY = (y >= 65 && y <= 90) ? y | 0x20 : y
                if lowerX != lowerY { return false }
            }
            index += 1
        }
        return true
    }

    /// The first UTF-8 byte that satisfies `predicate`, read in place when the string is
    /// contiguous (always, for native strings): iterating `utf8` generically costs several times
    /// more per byte, and header names and values are checked on every request.
    func firstByte(where predicate: (UInt8) -> Bool) -> UInt8? {
        if let found = utf8.withContiguousStorageIfAvailable({ bytes -> UInt8? in
            for byte in bytes where predicate(byte) { return byte }
            return nil
        }) {
            return found
        }
        return utf8.first(where: predicate)
    }
}
