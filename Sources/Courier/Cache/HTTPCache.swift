import Foundation

/// The cache as the request driver uses it: ``prepare(_:policy:now:)`` before a request is sent,
/// ``complete(_:request:response:requestTime:responseTime:)`` when its final response has
/// arrived. The rules are ``CacheRules``; this type only reads and writes the store.
///
/// The driver routes through it only plain data requests (no download destination, no streamed
/// body either way), after interceptors and plugins have adapted the request and before the
/// transfer; each redirect hop is a request of its own.
final class HTTPCache: Sendable {
    /// What to do before sending, and what ``complete(_:request:response:requestTime:responseTime:)``
    /// needs to know afterwards.
    struct Plan: Equatable, Sendable {
        enum Action: Equatable, Sendable {
            /// Answer with `response` at once; send nothing.
            case respond(CacheResponse, TransferMetrics.CacheOutcome)
            /// Send the request with `headers` added (the conditions of a revalidation, or none).
            case send(addingHeaders: [CacheHeader])
        }

        let action: Action
        /// The entry a conditional request validates.
        let revalidating: CacheEntry?
        /// Whether the response may be stored.
        let storable: Bool
    }

    /// What to deliver once the response has arrived.
    enum Completion: Equatable, Sendable {
        /// Give the caller `response` (the server's, or the stored one freshened by a 304).
        case deliver(CacheResponse, TransferMetrics.CacheOutcome)
        /// The 304 named another representation than the stored one: send the request again as
        /// it was, without conditions (the stored entry has been removed).
        case refetch
    }

    let store: any CacheStore

    /// A cache over `storage`'s store; nil for ``Session/CacheStorage/off``.
    init?(_ storage: Session.CacheStorage) {
        switch storage.kind {
        case .off: return nil
        case .memory(let maxBytes): store = MemoryCacheStore(maxBytes: maxBytes)
        case .disk(let directory, let maxBytes): store = DiskCacheStore(directory: directory, maxBytes: maxBytes)
        }
    }

    /// A cache over `store` (tests).
    init(store: any CacheStore) {
        self.store = store
    }

    /// What to do with `request` (the request as it is about to be sent) at `now`.
    func prepare(_ request: CacheRequest, policy: Session.CachePolicy, now: Date) -> Plan {
        let key = CacheRules.key(for: request.url)
        let stored = store.entry(forKey: key)
        switch CacheRules.lookup(request, stored: stored, policy: policy, now: now) {
        case .serve(let entry, let age):
            let response = CacheRules.servedResponse(entry, age: age, method: request.method)
            return Plan(action: .respond(response, .hit), revalidating: nil, storable: false)
        case .notModified(let entry, let age):
            return Plan(
                action: .respond(CacheRules.notModifiedResponse(entry, age: age), .hit), revalidating: nil,
                storable: false)
        case .validate(let entry, let conditions):
            return Plan(action: .send(addingHeaders: conditions), revalidating: entry, storable: true)
        case .fetch(let storable):
            return Plan(action: .send(addingHeaders: []), revalidating: nil, storable: storable)
        case .unsatisfiable:
            return Plan(
                action: .respond(CacheRules.unsatisfiableResponse, .unavailable), revalidating: nil, storable: false)
        }
    }

    /// Stores, freshens or invalidates after `response` arrived for `request` (as sent, without the
    /// plan's conditions), sent at `requestTime` and received at `responseTime`; returns what to
    /// deliver.
    func complete(
        _ plan: Plan, request: CacheRequest, response: CacheResponse, requestTime: Date, responseTime: Date
    ) -> Completion {
        for key in CacheRules.invalidatedKeys(request, response) { store.remove(key: key) }
        if response.statusCode == 304, let entry = plan.revalidating {
            guard
                let freshened = CacheRules.freshen(
                    entry, with: response, requestTime: requestTime, responseTime: responseTime)
            else {
                store.remove(key: entry.key)
                return .refetch
            }
            store.store(freshened)
            let age = Int(CacheRules.currentAge(freshened, now: responseTime))
            return .deliver(CacheRules.servedResponse(freshened, age: age, method: request.method), .revalidated)
        }
        if plan.storable, CacheRules.isStorable(request, response) {
            store.store(CacheRules.makeEntry(request, response, requestTime: requestTime, responseTime: responseTime))
        } else if plan.storable, CacheControl(fieldValues: response.headers.values("Cache-Control")).noStore {
            store.remove(key: CacheRules.key(for: request.url))
        }
        return .deliver(response, .miss)
    }

    /// Removes every stored response.
    func removeAll() {
        store.removeAll()
    }
}
