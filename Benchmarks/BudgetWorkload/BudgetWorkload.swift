// The request the counted budgets measure (scripts/test.sh): a sequential GET of 1,200 bytes from
// httpbin, the W1 shape, with a completion handler or awaited. AllocationBudget counts its heap
// allocations, InstructionBudget (run under callgrind) its instructions.
import Courier
import Dispatch
import Foundation

/// `GET <base-url>/bytes/1200`.
struct Bytes: Router {
    let baseURL: String
    var path: String { "/bytes/1200" }
    var method: HTTPMethod { .get }
}

/// Sends the budget's request through one session, in either form.
public final class BudgetWorkload: Sendable {
    private let session: Session
    private let route: Bytes
    // One semaphore and one flag for every request: made per request, they counted 6 allocations
    // (the semaphore, the flag and its `NSLock`, with what Dispatch and Foundation allocate behind
    // them) that are the harness's, not Courier's. The handler's closure captures the workload
    // alone, which needs no allocation of its own.
    private let done = DispatchSemaphore(value: 0)
    private let ok = AtomicFlag()

    /// A session with `spinsBeforeParking` off: a count, not a timing, so nothing that varies
    /// with how soon the other thread runs.
    public init(baseURL: String) {
        var configuration = Session.Configuration()
        configuration.spinsBeforeParking = false
        session = Session(configuration: configuration)
        route = Bytes(baseURL: baseURL)
    }

    /// One request with a completion handler, waited for; true if it brought the 1,200 bytes.
    public func handlerRequest() -> Bool {
        ok.clear()
        session.request(route).validate().responseData { [self] response in
            if response.value?.count == 1200 { ok.set() }
            done.signal()
        }
        done.wait()
        return ok.isSet
    }

    /// One awaited request; true if it brought the 1,200 bytes.
    public func awaitedRequest() async -> Bool {
        (try? await session.request(route).validate().data())?.count == 1200
    }
}

/// A flag set on the callback queue and read by the sending thread.
final class AtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    func clear() { lock.withLock { value = false } }
    var isSet: Bool { lock.withLock { value } }
}
