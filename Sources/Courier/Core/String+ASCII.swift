import Foundation

extension String {
    /// ASCII case-insensitive equality, for header names (no Foundation, no allocation).
    func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        for (a, b) in zip(utf8, other.utf8) where a != b {
            let lowerA = (a >= 65 && a <= 90) ? a | 0x20 : a
            let lowerB = (b >= 65 && b <= 90) ? b | 0x20 : b
            if lowerA != lowerB { return false }
        }
        return true
    }
}
