import Foundation
import Glibc
import CourierSync

/// A custom route registered with ``TestHTTPServer/route(_:_:_:)``.
struct CustomRoute: Sendable {
    /// The method to match, or `nil` for any.
    var method: String?
    /// The exact path to match.
    var path: String
    /// Produces the response.
    var handler: @Sendable (TestHTTPRequest) -> TestHTTPResponse
}

/// The shared state of a running server: the listening socket, the registry of open
/// connections, counters, recorded requests and routes. Threads hold this object (not
/// the public ``TestHTTPServer``), so dropping the server runs its `deinit`, which stops everything.
final class ServerCore: Sendable {
    /// Everything mutable, guarded by one mutex.
    struct State {
        var listenerOpen = true
        var acceptLoopFinished = false
        var nextConnectionID = 1
        var connectionsAccepted = 0
        var requestsServed = 0
        var openConnections: [Int: Int32] = [:]
        /// The thread serving each open connection, so ``shutdown()`` called from a route
        /// handler does not wait for its own connection.
        var connectionThreads: [Int: pthread_t] = [:]
        var recordedRequests: [TestHTTPRequest] = []
        var routes: [CustomRoute] = []
        /// Faults queued by `failNext`, applied in the order they were queued.
        var faults: [InjectedFault] = []
    }

    /// Per-connection thread stack size; parsing and handlers need little.
    static let threadStackSize = 1 << 20

    let listenFD: Int32
    let port: Int
    let isIPv6: Bool
    let stop = StopSignal()
    let state = Locked(State())
    /// Signalled whenever a connection closes or the accept loop ends, for ``shutdown()`` to wait on.
    private let drained = NSCondition()

    /// Starts listening on `host` at `port` (0 = ephemeral) and starts the accept thread.
    init(host: String, port: Int) throws(TestHTTPServerError) {
        let listener = try POSIXSocket.listen(host: host, port: port)
        listenFD = listener.fd
        self.port = listener.port
        isIPv6 = listener.isIPv6
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "TestHTTPServer.accept:\(listener.port)"
        thread.start()
    }

    /// Accepts connections until the listener is shut down, one thread per connection.
    private func acceptLoop() {
        while let fd = POSIXSocket.accept(listenFD) {
            let id: Int? = state.withLock { state in
                guard state.listenerOpen else { return nil }
                let id = state.nextConnectionID
                state.nextConnectionID += 1
                state.connectionsAccepted += 1
                state.openConnections[id] = fd
                return id
            }
            guard let id else {
                close(fd)
                break
            }
            let thread = Thread { [self] in
                let current = pthread_self()
                state.withLock { $0.connectionThreads[id] = current }
                Connection(core: self, fd: fd, id: id).run()
                connectionFinished(id: id, fd: fd)
            }
            thread.name = "TestHTTPServer.connection:\(id)"
            thread.stackSize = Self.threadStackSize
            thread.start()
        }
        // The accept loop owns the listening descriptor and closes it exactly once.
        close(listenFD)
        state.withLock { $0.acceptLoopFinished = true }
        signalDrained()
    }

    /// Unregisters a finished connection, then closes its descriptor. Closing only after
    /// unregistering (under the lock) guarantees ``shutdown()`` never touches a reused descriptor.
    private func connectionFinished(id: Int, fd: Int32) {
        state.withLock { state in
            state.openConnections.removeValue(forKey: id)
            state.connectionThreads.removeValue(forKey: id)
        }
        close(fd)
        signalDrained()
    }

    private func signalDrained() {
        drained.lock()
        drained.broadcast()
        drained.unlock()
    }

    /// Records an incoming request and counts it as served.
    func record(_ request: TestHTTPRequest) {
        state.withLock { state in
            state.recordedRequests.append(request)
            state.requestsServed += 1
        }
    }

    /// Takes one use of the first queued fault that applies to `request`, if any.
    func takeFault(for request: TestHTTPRequest) -> InjectedFault? {
        state.withLock { state in
            guard let index = state.faults.firstIndex(where: { $0.applies(to: request) }) else { return nil }
            let fault = state.faults[index]
            state.faults[index].remaining -= 1
            if state.faults[index].remaining <= 0 { state.faults.remove(at: index) }
            return fault
        }
    }

    /// The most recently registered custom route matching `request` (a `GET` route also
    /// answers `HEAD`); method-specific routes win over method-less ones.
    func customRoute(for request: TestHTTPRequest) -> CustomRoute? {
        let routes = state.withLock { $0.routes }
        let candidates = routes.reversed().filter { $0.path == request.path }
        if let exact = candidates.first(where: { $0.method == request.method }) { return exact }
        if request.method == "HEAD", let get = candidates.first(where: { $0.method == "GET" }) { return get }
        return candidates.first { $0.method == nil }
    }

    /// Stops the server: closes the listener, shuts down every open connection (waking
    /// blocked reads), ends sleeping delays, and waits (bounded) for threads to finish.
    func shutdown() {
        let descriptors: [Int32]? = state.withLock { state in
            guard state.listenerOpen else { return nil }
            state.listenerOpen = false
            return Array(state.openConnections.values)
        }
        stop.stop()
        if let descriptors {
            // Wakes the blocked accept(); the accept loop then closes the listener.
            POSIXSocket.shutdownBoth(listenFD)
            for fd in descriptors { POSIXSocket.shutdownBoth(fd) }
        }
        waitUntilDrained(timeout: 5)
        // Drop the handlers: a handler capturing its server would otherwise keep it alive forever.
        let droppedRoutes = state.withLock { state in
            defer { state.routes.removeAll() }
            return state.routes
        }
        // Released here, outside the lock, because a handler may hold the last reference to
        // its server, whose deinit calls shutdown() again.
        withExtendedLifetime(droppedRoutes) {}
    }

    /// Shuts down connections that registered after ``shutdown()`` took its snapshot, and
    /// waits until the accept loop has ended and all connection threads have closed their
    /// sockets (except the caller's own, when called from a route handler), or `timeout`
    /// seconds pass (a custom handler may block forever).
    private func waitUntilDrained(timeout: TimeInterval) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        let caller = pthread_self()
        while true {
            let done: Bool = state.withLock { state in
                for fd in state.openConnections.values { POSIXSocket.shutdownBoth(fd) }
                let others = state.openConnections.keys.filter { id in
                    state.connectionThreads[id].map { pthread_equal($0, caller) == 0 } ?? true
                }
                return state.acceptLoopFinished && others.isEmpty
            }
            if done || Date() >= deadline { return }
            drained.lock()
            _ = drained.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.05)))
            drained.unlock()
        }
    }

    /// Whether ``shutdown()`` has been called.
    var isShutDown: Bool {
        state.withLock { !$0.listenerOpen }
    }
}
