// A plain synchronous command-line program: it starts a request with a completion handler and
// blocks its main thread until the handler has run. This works because Courier delivers
// completions on a global queue by default, not on the main queue (which has no run loop here).
//
// Usage: SyncMain [URL]   (without a URL it serves /hello from an embedded loopback server)
import Courier
import CourierTestServer
import Dispatch
import Foundation

let embedded = CommandLine.arguments.count > 1 ? nil : try? TestHTTPServer()
let target = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : (embedded?.url("/hello").absoluteString ?? "")

let done = DispatchSemaphore(value: 0)
let exitCode = ExitStatus(1)
Session.default.request(.url(target)).validate().responseString { response in
    switch response.result {
    case .success(let text):
        print("sync main: \(response.statusCode ?? 0) \(text)")
        exitCode.set(0)
    case .failure(let error):
        print("sync main failed: \(error)")
    }
    done.signal()
}
done.wait()
embedded?.shutdown()
exit(exitCode.get())

/// A tiny lock-protected integer, so the handler can report back to the main thread.
final class ExitStatus: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int32
    init(_ value: Int32) { self.value = value }
    func set(_ newValue: Int32) { lock.lock(); value = newValue; lock.unlock() }
    func get() -> Int32 { lock.lock(); defer { lock.unlock() }; return value }
}
