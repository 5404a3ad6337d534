import CourierSync
import Foundation

/// Entries as files in a directory, within `maxBytes` of files in all.
///
/// One file per key, named by a hash of the key: a magic, the metadata and body lengths, the
/// metadata (JSON), the body, and a checksum of everything before it. A file is written under a
/// temporary name and renamed into place, so a reader sees the old file or the new one, never a
/// mix; a file whose length, checksum or key does not match (cut short by a crash, damaged) is
/// deleted and counts as a miss. Temporary files left by a crash are deleted when the store opens.
/// Use order is tracked in memory; when the store opens, files are ordered by their write time.
final class DiskCacheStore: CacheStore {
    static let magic: [UInt8] = Array("CCE1".utf8)
    static let suffix = ".entry"
    static let temporarySuffix = ".tmp"

    let directory: URL
    let maxBytes: Int
    private let index = Locked(LRUIndex())

    /// Opens (creating it if needed) the store in `directory`; evicts down to `maxBytes` at once.
    init(directory: URL, maxBytes: Int) {
        self.directory = directory
        self.maxBytes = maxBytes
        let files = FileManager.default
        try? files.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let names = (try? files.contentsOfDirectory(atPath: directory.path)) ?? []
        var found: [(name: String, size: Int, written: Date)] = []
        for name in names {
            let path = directory.appendingPathComponent(name).path
            if name.hasSuffix(Self.temporarySuffix) {
                try? files.removeItem(atPath: path)
            } else if name.hasSuffix(Self.suffix), let attributes = try? files.attributesOfItem(atPath: path) {
                let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
                found.append((name, size, attributes[.modificationDate] as? Date ?? .distantPast))
            }
        }
        let evicted = index.withLock { index in
            for file in found.sorted(by: { $0.written < $1.written }) { index.touch(file.name, cost: file.size) }
            return index.evict(toFit: maxBytes)
        }
        evicted.forEach(deleteFile)
    }

    func entry(forKey key: String) -> CacheEntry? {
        let name = Self.fileName(for: key)
        guard index.withLock({ $0.contains(name) }) else { return nil }
        guard let data = try? Data(contentsOf: url(name)), let entry = Self.decode(data), entry.key == key else {
            remove(key: key)
            return nil
        }
        index.withLock { $0.touch(name) }
        return entry
    }

    func store(_ entry: CacheEntry) {
        let name = Self.fileName(for: entry.key)
        guard !entry.carriesCredentials, let data = Self.encode(entry), data.count <= maxBytes else {
            remove(key: entry.key)
            return
        }
        let temporary = url(name + "." + UUID().uuidString + Self.temporarySuffix)
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
        else { return }
        let evicted: [String] = index.withLock { index in
            guard rename(temporary.path, url(name).path) == 0 else {
                try? FileManager.default.removeItem(at: temporary)
                return []
            }
            index.touch(name, cost: data.count)
            return index.evict(toFit: maxBytes).filter { $0 != name }
        }
        evicted.forEach(deleteFile)
    }

    func remove(key: String) {
        let name = Self.fileName(for: key)
        index.withLock { index in
            index.remove(name)
            deleteFile(name)
        }
    }

    func removeAll() {
        let names = index.withLock { index in
            let names = Array(index.costs.keys)
            index.removeAll()
            return names
        }
        names.forEach(deleteFile)
    }

    var totalBytes: Int { index.withLock { $0.totalBytes } }

    private func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    private func deleteFile(_ name: String) {
        unlink(url(name).path)
    }

    // MARK: File format

    /// The file name for `key`: a 64-bit FNV-1a hash in hex (the key itself is checked on read).
    static func fileName(for key: String) -> String {
        let hash = fnv1a(Array(key.utf8)[...])
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + suffix
    }

    /// The bytes of the file for `entry`.
    static func encode(_ entry: CacheEntry) -> Data? {
        var metadata = entry
        metadata.body = Data()
        guard let json = try? JSONEncoder().encode(metadata) else { return nil }
        var bytes = magic
        bytes += littleEndian(UInt64(json.count)) + littleEndian(UInt64(entry.body.count))
        bytes += json
        bytes += entry.body
        bytes += littleEndian(fnv1a(bytes[...]))
        return Data(bytes)
    }

    /// The entry in `data`, or nil when the file is not exactly one whole, undamaged entry.
    static func decode(_ data: Data) -> CacheEntry? {
        let bytes = [UInt8](data)
        let header = magic.count + 16
        guard bytes.count >= header + 8, Array(bytes[0..<magic.count]) == magic else { return nil }
        let metadataLength = readLittleEndian(bytes, at: magic.count)
        let bodyLength = readLittleEndian(bytes, at: magic.count + 8)
        guard metadataLength < UInt64(bytes.count), bodyLength < UInt64(bytes.count),
            UInt64(header) + metadataLength + bodyLength + 8 == UInt64(bytes.count)
        else { return nil }
        let end = bytes.count - 8
        guard readLittleEndian(bytes, at: end) == fnv1a(bytes[0..<end]) else { return nil }
        let metadataEnd = header + Int(metadataLength)
        guard var entry = try? JSONDecoder().decode(CacheEntry.self, from: Data(bytes[header..<metadataEnd])) else {
            return nil
        }
        entry.body = Data(bytes[metadataEnd..<end])
        return entry
    }

    static func fnv1a(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func littleEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
}
