@testable import Courier
import CourierSync
import Dispatch
import Foundation
import XCTest

/// The memory and disk stores: byte budgets, least-recently-used eviction, damaged files, and
/// concurrent use (run under `--sanitize=thread` by the test command's TSan pass).
final class CacheStoreTests: XCTestCase {
    private var directory: URL!

    override func setUp() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    private static func entry(_ key: String, bytes: Int = 100, credentials: Bool = false) -> CacheEntry {
        CacheEntry(
            key: key, statusCode: 200,
            headers: [CacheHeader("Cache-Control", "max-age=60"), CacheHeader("ETag", "\"\(key)\"")],
            body: Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ key.utf8.count) }),
            requestTime: Date(timeIntervalSince1970: 1_750_000_000),
            responseTime: Date(timeIntervalSince1970: 1_750_000_001),
            varying: credentials ? ["authorization": "Bearer x"] : ["accept": "text/plain"],
            carriesCredentials: credentials)
    }

    private func stores(maxBytes: Int) -> [(String, any CacheStore)] {
        [
            ("memory", MemoryCacheStore(maxBytes: maxBytes)),
            ("disk", DiskCacheStore(directory: directory, maxBytes: maxBytes))
        ]
    }

    private func fileBytes() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(name).path)
            return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }

    func testStoresRoundTripAndReplace() {
        for (name, store) in stores(maxBytes: 1 << 20) {
            let first = Self.entry("https://a.example/1")
            store.store(first)
            XCTAssertEqual(store.entry(forKey: first.key), first, name)
            var replaced = first
            replaced.body = Data("new".utf8)
            store.store(replaced)
            XCTAssertEqual(store.entry(forKey: first.key)?.body, Data("new".utf8), name)
            XCTAssertNil(store.entry(forKey: "https://a.example/other"), name)
            store.remove(key: first.key)
            XCTAssertNil(store.entry(forKey: first.key), name)
            XCTAssertEqual(store.totalBytes, 0, name)
        }
    }

    func testLeastRecentlyUsedIsEvictedFirstWithinTheBudget() throws {
        let a = Self.entry("a", bytes: 250), b = Self.entry("b", bytes: 250), c = Self.entry("c", bytes: 250)
        // Room for three entries, not four (all four have the same size in each store).
        let memoryBudget = a.cost * 7 / 2
        let diskBudget = try XCTUnwrap(DiskCacheStore.encode(a)).count * 7 / 2
        let budgeted: [(String, any CacheStore, Int)] = [
            ("memory", MemoryCacheStore(maxBytes: memoryBudget), memoryBudget),
            ("disk", DiskCacheStore(directory: directory, maxBytes: diskBudget), diskBudget)
        ]
        for (name, store, budget) in budgeted {
            store.store(a)
            store.store(b)
            store.store(c)
            XCTAssertNotNil(store.entry(forKey: "a"), name)  // a is now the most recently used
            store.store(Self.entry("d", bytes: 250))
            XCTAssertNil(store.entry(forKey: "b"), "\(name): the least recently used entry goes first")
            XCTAssertNotNil(store.entry(forKey: "a"), name)
            XCTAssertNotNil(store.entry(forKey: "c"), name)
            XCTAssertNotNil(store.entry(forKey: "d"), name)
            XCTAssertLessThanOrEqual(store.totalBytes, budget, name)
            // Larger than the whole budget: not stored, and the old entry under the key goes.
            store.store(Self.entry("a", bytes: 5000))
            XCTAssertNil(store.entry(forKey: "a"), name)
            store.removeAll()
            XCTAssertEqual(store.totalBytes, 0, name)
        }
    }

    func testDiskUseStaysWithinTheBudget() {
        let store = DiskCacheStore(directory: directory, maxBytes: 20_000)
        for index in 0..<200 { store.store(Self.entry("https://a.example/\(index)", bytes: 100 + index * 7)) }
        XCTAssertLessThanOrEqual(fileBytes(), 20_000)
        XCTAssertEqual(fileBytes(), store.totalBytes)
        // Reopened with a smaller budget, the store evicts at once.
        let reopened = DiskCacheStore(directory: directory, maxBytes: 5_000)
        XCTAssertLessThanOrEqual(fileBytes(), 5_000)
        XCTAssertEqual(
            reopened.entry(forKey: "https://a.example/199")?.key, "https://a.example/199", "the newest survives")
    }

    func testDiskEntriesSurviveReopening() {
        let written = Self.entry("https://a.example/persist", bytes: 3000)
        DiskCacheStore(directory: directory, maxBytes: 1 << 20).store(written)
        XCTAssertEqual(DiskCacheStore(directory: directory, maxBytes: 1 << 20).entry(forKey: written.key), written)
    }

    func testDamagedOrTruncatedFilesAreNeverServed() throws {
        let key = "https://a.example/damaged"
        let path = directory.appendingPathComponent(DiskCacheStore.fileName(for: key)).path
        let damages: [(String, (Data) -> Data)] = [
            ("truncated", { $0.prefix($0.count - 10) }),
            ("cut in the metadata", { $0.prefix(30) }),
            ("empty", { _ in Data() }),
            (
                "a body byte flipped",
                { data in
                    var copy = data; copy[copy.count - 20] ^= 0x40; return copy
                }
            ),
            (
                "a metadata byte flipped",
                { data in
                    var copy = data; copy[40] ^= 0x01; return copy
                }
            ),
            ("bytes appended", { $0 + Data([1, 2, 3]) }),
            (
                "another magic",
                { data in
                    var copy = data; copy[0] = UInt8(ascii: "X"); return copy
                }
            )
        ]
        for (damage, transform) in damages {
            let store = DiskCacheStore(directory: directory, maxBytes: 1 << 20)
            store.store(Self.entry(key, bytes: 500))
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            try transform(original).write(to: URL(fileURLWithPath: path))
            XCTAssertNil(store.entry(forKey: key), "\(damage): served")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "\(damage): the file is deleted")
            // A store opened later over a damaged file does not serve it either.
            store.store(Self.entry(key, bytes: 500))
            try transform(original).write(to: URL(fileURLWithPath: path))
            XCTAssertNil(
                DiskCacheStore(directory: directory, maxBytes: 1 << 20).entry(forKey: key),
                "\(damage): served after reopening")
        }
    }

    func testLeftoverTemporaryFilesAreRemovedWhenOpening() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let leftover = directory.appendingPathComponent("0123456789abcdef.entry.crash\(DiskCacheStore.temporarySuffix)")
        try Data(repeating: 7, count: 100).write(to: leftover)
        _ = DiskCacheStore(directory: directory, maxBytes: 1 << 20)
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover.path))
    }

    func testAnotherKeyWithTheSameFileIsAMiss() throws {
        let store = DiskCacheStore(directory: directory, maxBytes: 1 << 20)
        let stored = Self.entry("https://a.example/one")
        store.store(stored)
        var impostor = stored
        impostor.key = "https://a.example/two"
        let path = directory.appendingPathComponent(DiskCacheStore.fileName(for: impostor.key))
        try XCTUnwrap(DiskCacheStore.encode(impostor)).write(to: path)
        XCTAssertEqual(DiskCacheStore(directory: directory, maxBytes: 1 << 20).entry(forKey: impostor.key), impostor)
        // "one"'s file under "two"'s name (as a hash collision would leave it): a miss, not "one".
        try FileManager.default.removeItem(at: path)
        try FileManager.default.copyItem(
            at: directory.appendingPathComponent(DiskCacheStore.fileName(for: stored.key)), to: path)
        XCTAssertNil(DiskCacheStore(directory: directory, maxBytes: 1 << 20).entry(forKey: impostor.key))
    }

    func testCredentialedEntriesStayInMemory() {
        let disk = DiskCacheStore(directory: directory, maxBytes: 1 << 20)
        disk.store(Self.entry("https://a.example/private", credentials: true))
        XCTAssertNil(disk.entry(forKey: "https://a.example/private"))
        XCTAssertEqual(fileBytes(), 0)
        let memory = MemoryCacheStore(maxBytes: 1 << 20)
        memory.store(Self.entry("https://a.example/private", credentials: true))
        XCTAssertNotNil(memory.entry(forKey: "https://a.example/private"))
    }

    func testConcurrentUseKeepsEveryEntryWhole() {
        for (name, store) in stores(maxBytes: 40_000) {
            let keys = (0..<16).map { "https://a.example/\($0)" }
            let torn = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for round in 0..<60 {
                    let key = keys[(worker * 7 + round) % keys.count]
                    switch round % 3 {
                    case 0: store.store(Self.entry(key, bytes: 500 + (round % 5) * 300))
                    case 1:
                        if let found = store.entry(forKey: key), found.key != key || found.body.count % 100 != 0 {
                            torn.withLock { $0 += 1 }
                        }
                    default: if round % 9 == 2 { store.remove(key: key) }
                    }
                }
            }
            XCTAssertEqual(torn.withLock { $0 }, 0, name)
            XCTAssertLessThanOrEqual(store.totalBytes, 40_000, name)
        }
        XCTAssertEqual(fileBytes(), DiskCacheStore(directory: directory, maxBytes: 40_000).totalBytes)
    }
}
