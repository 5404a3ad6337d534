// An async command-line program: top-level `await` on the request.
//
// Usage: AsyncMain [URL]   (without a URL it serves /hello from an embedded loopback server)
import Courier
import CourierTestServer
import Foundation

let embedded = CommandLine.arguments.count > 1 ? nil : try? TestHTTPServer()
let target = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : (embedded?.url("/hello").absoluteString ?? "")

do {
    let text = try await Session.default.request(.url(target)).validate().string()
    print("async main: \(text)")
    embedded?.shutdown()
    exit(0)
} catch {
    print("async main failed: \(error)")
    embedded?.shutdown()
    exit(1)
}
