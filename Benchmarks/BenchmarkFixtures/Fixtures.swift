import Foundation

/// Deterministic fixtures served by the benchmark's nginx: the same bytes on every run.
public enum Fixtures {
    public static let smallName = "small.json"
    public static let arrayName = "array.json"
    public static let bigName = "big.bin"
    /// The POST body (a copy of the small JSON), read by every client for W5.
    public static let postBodyName = "post-body.json"

    public static let smallSize = 1_200
    public static let arrayCount = 1_000
    /// Each object of the array is this long; with commas and brackets the array is 193,001 bytes.
    public static let arrayObjectSize = 192
    public static let bigSize = 512 << 20

    /// Writes every fixture into `directory` (the 512 MiB file only when missing or of the wrong size),
    /// or else reads it once, so that it is in the page cache before any client fetches it.
    public static func generate(in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let small = smallJSON()
        try small.write(to: directory.appendingPathComponent(smallName))
        try small.write(to: directory.appendingPathComponent(postBodyName))
        try arrayJSON().write(to: directory.appendingPathComponent(arrayName))
        let big = directory.appendingPathComponent(bigName)
        let existing = (try? FileManager.default.attributesOfItem(atPath: big.path)[.size] as? Int) ?? -1
        if existing != bigSize { try writeBig(to: big) } else { try readThrough(big) }
    }

    /// Reads `url` to its end and discards the bytes. A file kept from an earlier run may have left
    /// the page cache; without this read the first client of the first round (Courier, in
    /// `run.sh`'s order) would fetch it through nginx from disk while every later one reads memory.
    static func readThrough(_ url: URL) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {}
    }

    /// A 1,200-byte JSON object (a user profile with a padded bio).
    public static func smallJSON() -> Data {
        let fields: [String] = [
            "\"id\":4242",
            "\"username\":\"courier-benchmark\"",
            "\"email\":\"bench@example.com\"",
            "\"verified\":true",
            "\"score\":98.75",
            "\"roles\":[\"reader\",\"writer\",\"admin\"]",
            "\"address\":{\"street\":\"1 Loopback Road\",\"city\":\"Oslo\",\"zip\":\"0150\",\"country\":\"NO\"}",
            "\"createdAt\":\"2024-05-01T12:00:00Z\""
        ]
        let prefix = "{" + fields.joined(separator: ",") + ",\"bio\":\""
        let suffix = "\"}"
        let padding = smallSize - prefix.utf8.count - suffix.utf8.count
        let text = prefix + pattern(length: padding) + suffix
        precondition(text.utf8.count == smallSize)
        return Data(text.utf8)
    }

    /// A JSON array of 1,000 objects of `arrayObjectSize` bytes each, decodable as `[Item]`.
    public static func arrayJSON() -> Data {
        var text = "["
        for index in 0..<arrayCount {
            if index > 0 { text += "," }
            let prefix =
                "{\"id\":\(index + 1),"
                + "\"guid\":\"\(String(format: "%08x", index * 2_654_435_761 % 4_294_967_296))-4c2a-9b3d-5e1f\","
                + "\"name\":\"Item \(index + 1)\",\"price\":\(Double(index % 997) + 0.25),"
                + "\"quantity\":\(index % 50),\"active\":\(index % 3 != 0),"
                + "\"tags\":[\"t\(index % 7)\",\"t\(index % 11)\"],\"note\":\""
            let suffix = "\"}"
            let padding = arrayObjectSize - prefix.utf8.count - suffix.utf8.count
            precondition(padding > 0)
            text += prefix + pattern(length: padding) + suffix
        }
        text += "]"
        return Data(text.utf8)
    }

    /// Deterministic filler text.
    public static func pattern(length: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 ")
        var result = ""
        result.reserveCapacity(length)
        for index in 0..<length { result.append(alphabet[(index * 7 + 3) % alphabet.count]) }
        return result
    }

    /// 512 MiB of pseudo-random bytes from a fixed seed, written 1 MiB at a time.
    public static func writeBig(to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BenchmarkFailure("cannot create \(url.path)")
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<(bigSize >> 20) {
            for index in stride(from: 0, to: chunk.count, by: 8) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                withUnsafeBytes(of: state.littleEndian) { bytes in
                    for offset in 0..<8 { chunk[index + offset] = bytes[offset] }
                }
            }
            try handle.write(contentsOf: chunk)
        }
    }
}

/// One object of the W3 array.
public struct Item: Decodable, Sendable {
    public let id: Int
    public let guid: String
    public let name: String
    public let price: Double
    public let quantity: Int
    public let active: Bool
    public let tags: [String]
    public let note: String
}

/// A benchmark that could not run as intended.
public struct BenchmarkFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
