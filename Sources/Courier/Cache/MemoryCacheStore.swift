import CourierSync
import Foundation

/// Where the cache keeps entries: one entry per key, a byte budget, least recently used first out.
/// Every method is safe to call from any thread.
protocol CacheStore: AnyObject, Sendable {
    /// The entry stored under `key`, marked as just used; nil when there is none (or it was damaged).
    func entry(forKey key: String) -> CacheEntry?
    /// Stores `entry` under its key, replacing the one there, evicting others to stay in budget.
    /// An entry larger than the whole budget is not stored (and removes the old one).
    func store(_ entry: CacheEntry)
    /// Removes the entry under `key`, if any.
    func remove(key: String)
    /// Removes every entry.
    func removeAll()
    /// The bytes the entries occupy now.
    var totalBytes: Int { get }
}

/// Least-recently-used bookkeeping shared by the stores: costs and use order per key.
struct LRUIndex: Sendable {
    private(set) var costs: [String: Int] = [:]
    private var lastUse: [String: UInt64] = [:]
    private var clock: UInt64 = 0
    private(set) var totalBytes = 0

    /// Records `key` as used now, with `cost` bytes (replacing its old cost).
    mutating func touch(_ key: String, cost: Int? = nil) {
        clock += 1
        lastUse[key] = clock
        if let cost {
            totalBytes += cost - (costs[key] ?? 0)
            costs[key] = cost
        }
    }

    /// Forgets `key`.
    mutating func remove(_ key: String) {
        totalBytes -= costs.removeValue(forKey: key) ?? 0
        lastUse[key] = nil
    }

    mutating func removeAll() {
        self = LRUIndex()
    }

    /// The keys to evict, least recently used first, so that at most `budget` bytes remain;
    /// removed from the index.
    mutating func evict(toFit budget: Int) -> [String] {
        guard totalBytes > budget else { return [] }
        var evicted: [String] = []
        for (key, _) in lastUse.sorted(by: { $0.value < $1.value }) where totalBytes > budget {
            remove(key)
            evicted.append(key)
        }
        return evicted
    }

    func contains(_ key: String) -> Bool { costs[key] != nil }
}

/// Entries in memory, within `maxBytes`.
final class MemoryCacheStore: CacheStore {
    private struct State {
        var entries: [String: CacheEntry] = [:]
        var index = LRUIndex()
    }

    let maxBytes: Int
    private let state = Locked(State())

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    func entry(forKey key: String) -> CacheEntry? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            state.index.touch(key)
            return entry
        }
    }

    func store(_ entry: CacheEntry) {
        let cost = entry.cost
        state.withLock { state in
            guard cost <= maxBytes else {
                state.entries[entry.key] = nil
                state.index.remove(entry.key)
                return
            }
            state.entries[entry.key] = entry
            state.index.touch(entry.key, cost: cost)
            for key in state.index.evict(toFit: maxBytes) { state.entries[key] = nil }
        }
    }

    func remove(key: String) {
        state.withLock { state in
            state.entries[key] = nil
            state.index.remove(key)
        }
    }

    func removeAll() {
        state.withLock { $0 = State() }
    }

    var totalBytes: Int { state.withLock { $0.index.totalBytes } }
}
