import Foundation

/// One accepted TCP connection, served on its own thread with blocking I/O:
/// read a request, route it, write the response, repeat while keep-alive allows.
struct Connection {
    let core: ServerCore
    let fd: Int32
    let id: Int

    /// Serves requests until the client closes, a response closes the connection,
    /// garbage arrives, or the server shuts down. Does not close the descriptor
    /// (``ServerCore`` does, after unregistering it).
    func run() {
        let reader = ByteReader(fd: fd)
        let writer = ResponseWriter(fd: fd, stop: core.stop)
        var index = 0
        while !core.stop.isStopped {
            index += 1
            // `/upload/digest` bodies are hashed as they arrive instead of being kept.
            var digest: SHA256.Hasher?
            let result = RequestParser.parse(from: reader, sendContinue: { writer.sendContinue() }) { head in
                guard TestHTTPRequest.splitTarget(head.target).path == BuiltinRoutes.digestPath else { return nil }
                digest = SHA256.Hasher()
                return { digest?.update($0) }
            }
            switch result {
            case .endOfStream:
                return
            case .failure(let status, let reason):
                writer.writeError(status: status, reason: reason)
                POSIXSocket.lingeringShutdown(fd)
                return
            case .request(let head, let body):
                var request = TestHTTPRequest(
                    method: head.method, rawTarget: head.target, version: head.version, headers: head.headers,
                    body: body, connectionID: id, indexOnConnection: index)
                if var digest {
                    request.streamedBodySummary = TestHTTPUploadSummary(bytes: digest.count, sha256: digest.hexDigest())
                }
                core.record(request)
                let response = respond(to: request)
                let keepAlive = head.wantsKeepAlive && !core.stop.isStopped
                switch writer.write(response, isHead: request.method == "HEAD", keepAlive: keepAlive) {
                case .keepAlive:
                    continue
                case .closeGracefully:
                    POSIXSocket.lingeringShutdown(fd)
                    return
                case .closeNow:
                    return
                }
            }
        }
    }

    /// The response from a matching custom route, else from the built-in routes, changed by
    /// the first queued fault that applies.
    func respond(to request: TestHTTPRequest) -> TestHTTPResponse {
        let normal = {
            if let route = core.customRoute(for: request) {
                return route.handler(request)
            }
            return BuiltinRoutes.respond(to: request)
        }
        guard let fault = core.takeFault(for: request) else { return normal() }
        return fault.apply(to: normal)
    }
}
