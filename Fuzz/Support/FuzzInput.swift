@testable import Courier
import Foundation

/// Reads structured values (numbers, strings, parameter trees) out of libFuzzer's raw bytes.
/// Past the end every read yields zero, so any input decodes to something.
struct FuzzInput {
    private let bytes: [UInt8]
    private var index = 0

    init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Everything that was not read yet.
    var remaining: [UInt8] { Array(bytes[min(index, bytes.count)...]) }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// A value in `range` (ranges up to 256 values).
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(byte()) % (range.count)
    }

    mutating func int64() -> Int64 {
        (0..<8).reduce(Int64(0)) { value, _ in value << 8 | Int64(byte()) }
    }

    /// Up to `maxCount` raw bytes, the count read first.
    mutating func bytes(maxCount: Int) -> [UInt8] {
        let count = int(in: 0...maxCount)
        return (0..<count).map { _ in byte() }
    }

    /// A string: mostly from an alphabet of characters that matter to encoders (delimiters,
    /// escapes, controls, non-ASCII), sometimes raw bytes (invalid UTF-8 becomes U+FFFD).
    mutating func string(maxCount: Int = 24) -> String {
        if byte() & 7 == 0 { return String(decoding: bytes(maxCount: maxCount), as: UTF8.self) }
        let count = int(in: 0...maxCount)
        return String((0..<count).map { _ in Self.alphabet[Int(byte()) % Self.alphabet.count] })
    }

    private static let alphabet: [Character] = Array(
        "aZ09-._~ /?#[]@!$&'()*+,;=%:\"<>\\^`{|}\t\r\n\u{0}\u{7F}é€😀\u{301}\u{FEFF}")

    /// A value for a ``Parameters`` tree, up to `depth` levels of nesting; now and then one no
    /// encoder accepts (a URL, a non-finite number) to exercise the typed failure.
    mutating func parameterValue(depth: Int) -> any Sendable {
        switch byte() % (depth > 0 ? 12 : 10) {
        case 0: return string()
        case 1: return Int(truncatingIfNeeded: int64())
        case 2: return bool()
        case 3: return Double(bitPattern: UInt64(bitPattern: int64()))
        case 4: return Optional<String>.none as any Sendable
        case 5: return NSNull()
        case 6: return UInt8(byte())
        case 7: return Float(Int8(bitPattern: byte())) / 4
        case 8: return byte() == 0 ? URL(fileURLWithPath: "/x") as any Sendable : string() as any Sendable
        case 9: return string(maxCount: 4)
        case 10: return (0..<int(in: 0...4)).map { _ in parameterValue(depth: depth - 1) }
        default: return parameters(depth: depth - 1)
        }
    }

    /// A ``Parameters``-shaped dictionary of up to five keys.
    mutating func parameters(depth: Int) -> [String: any Sendable] {
        var result: [String: any Sendable] = [:]
        for _ in 0..<int(in: 0...5) { result[string(maxCount: 8)] = parameterValue(depth: depth) }
        return result
    }
}

/// Stops the fuzzer with `message` (a crash libFuzzer records with the input) when `condition` fails.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}

/// Runs `body`; a thrown error must be a ``CourierError`` that `expected` accepts (then nil is
/// returned), anything else stops the fuzzer.
func typedResult<T>(_ body: () throws -> T, expected: (CourierError) -> Bool) -> T? {
    do {
        return try body()
    } catch let error as CourierError {
        require(expected(error), "unexpected error \(error)")
        return nil
    } catch {
        fatalError("untyped error \(error)")
    }
}
