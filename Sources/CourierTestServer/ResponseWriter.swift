import Foundation
import Glibc

/// What a connection should do after a response has been written.
enum ConnectionDisposition: Equatable {
    /// Read the next request on the same connection.
    case keepAlive
    /// Half-close, let the client read everything, then close.
    case closeGracefully
    /// Close immediately (the fault requires it, the peer is gone, or the server is stopping).
    case closeNow
}

/// Serialises ``TestHTTPResponse`` values onto a socket, carrying out their ``TestHTTPResponse/Behaviour``.
struct ResponseWriter {
    /// Bodies are written in slices of this size.
    static let sliceSize = 65_536

    let fd: Int32
    let stop: StopSignal

    /// Sends the interim `100 Continue` response.
    func sendContinue() {
        _ = send(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
    }

    /// Sends an error response for unparsable input, with `Connection: close`.
    func writeError(status: Int, reason: String) {
        var response = TestHTTPResponse.jsonString(
            "{\"error\":\"\(reason)\"}", status: status)
        response.headers.add("Connection", "close")
        _ = write(response, isHead: false, keepAlive: false)
    }

    /// Writes `response` for a request (`isHead` suppresses the body) and decides the
    /// connection's fate. `keepAlive` is whether the client allows persistence.
    func write(_ response: TestHTTPResponse, isHead: Bool, keepAlive: Bool) -> ConnectionDisposition {
        let closing = !keepAlive || response.headers.hasToken("Connection", "close")
        let afterBody: ConnectionDisposition = closing ? .closeGracefully : .keepAlive
        let mayHaveBody = TestHTTPResponse.statusAllowsBody(response.status)
        let body = mayHaveBody ? response.body : Data()

        switch response.behaviour {
        case .normal:
            let head = makeHead(response, contentLength: body.count, chunked: false, closing: closing)
            guard send(head, then: isHead ? Data() : body) else { return .closeNow }
            return afterBody

        case .delay(let milliseconds):
            guard stop.sleep(milliseconds: milliseconds) else { return .closeNow }
            return write(response.with(.normal), isHead: isHead, keepAlive: keepAlive)

        case .neverAnswer:
            POSIXSocket.drainUntilClosed(fd)
            return .closeNow

        case .closeBeforeHeaders:
            return .closeNow

        case .truncate(let sendBytes, let declaredLength):
            let head = makeHead(
                response, contentLength: max(0, declaredLength), chunked: false, closing: true,
                forceLength: true)
            var partial = body.prefix(max(0, sendBytes))
            if partial.count < sendBytes {
                partial.append(Data(repeating: UInt8(ascii: "x"), count: sendBytes - partial.count))
            }
            _ = send(head, then: isHead ? Data() : Data(partial))
            return .closeGracefully

        case .chunked(let chunkSize):
            let head = makeHead(response, contentLength: 0, chunked: mayHaveBody, closing: closing)
            guard send(head) else { return .closeNow }
            if isHead || !mayHaveBody { return afterBody }
            let size = max(1, chunkSize)
            let sizes = Array(repeating: size, count: (body.count + size - 1) / size)
            return sendChunked(body, sizes: sizes, intervalMs: 0) ? afterBody : .closeNow

        case .paced(let parts, let intervalMs):
            let head = makeHead(response, contentLength: 0, chunked: mayHaveBody, closing: closing)
            guard send(head) else { return .closeNow }
            if isHead || !mayHaveBody { return afterBody }
            return sendChunked(body, sizes: parts, intervalMs: intervalMs) ? afterBody : .closeNow

        case .trickle(let bytesPerChunk, let intervalMs):
            let head = makeHead(response, contentLength: body.count, chunked: false, closing: closing)
            guard send(head) else { return .closeNow }
            if isHead { return afterBody }
            let size = max(1, bytesPerChunk)
            var offset = 0
            while offset < body.count {
                if offset > 0 {
                    guard stop.sleep(milliseconds: intervalMs) else { return .closeNow }
                }
                let end = min(body.count, offset + size)
                guard send(body[(body.startIndex + offset)..<(body.startIndex + end)]) else { return .closeNow }
                offset = end
            }
            return afterBody

        case .raw(let bytes):
            _ = send(bytes)
            return .closeGracefully

        case .rawThenReset(let bytes, let milliseconds):
            _ = send(bytes)
            _ = stop.sleep(milliseconds: milliseconds)
            POSIXSocket.resetOnClose(fd)
            return .closeNow

        case .headersThenStall(let sendBytes):
            let head = makeHead(response, contentLength: body.count, chunked: false, closing: closing)
            guard send(head, then: isHead ? Data() : Data(body.prefix(max(0, sendBytes)))) else { return .closeNow }
            POSIXSocket.drainUntilClosed(fd)
            return .closeNow
        }
    }

    /// Sends `body` as chunks of `sizes` (the rest as one more chunk), `intervalMs` apart, then
    /// the last chunk; false if the peer is gone or the server stops.
    private func sendChunked(_ body: Data, sizes: [Int], intervalMs: Int) -> Bool {
        var offset = 0
        var index = 0
        while offset < body.count {
            if offset > 0, intervalMs > 0 {
                guard stop.sleep(milliseconds: intervalMs) else { return false }
            }
            let size = index < sizes.count ? max(1, sizes[index]) : body.count - offset
            index += 1
            let slice = body[(body.startIndex + offset)..<(body.startIndex + min(body.count, offset + size))]
            var chunk = Data(String(slice.count, radix: 16).utf8)
            chunk.append(contentsOf: [0x0D, 0x0A])
            chunk.append(slice)
            chunk.append(contentsOf: [0x0D, 0x0A])
            guard send(chunk) else { return false }
            offset += slice.count
        }
        return send(Data("0\r\n\r\n".utf8))
    }

    /// Builds the status line and header section. Adds `Content-Length` (unless chunked, the
    /// status has no body, or the handler set one and `forceLength` is false), the
    /// `Transfer-Encoding` for chunked responses, and `Connection`.
    func makeHead(
        _ response: TestHTTPResponse, contentLength: Int, chunked: Bool, closing: Bool, forceLength: Bool = false
    ) -> Data {
        var headers = response.headers
        if chunked {
            headers.remove("Content-Length")
            headers.set("Transfer-Encoding", "chunked")
        } else if forceLength {
            headers.set("Content-Length", String(contentLength))
        } else if TestHTTPResponse.statusAllowsBody(response.status) && !headers.contains("Content-Length") {
            headers.add("Content-Length", String(contentLength))
        }
        headers.set("Connection", closing ? "close" : "keep-alive")
        var text = "HTTP/1.1 \(response.status) \(TestHTTPResponse.reasonPhrase(response.status))\r\n"
        for field in headers {
            text += field.name + ": " + field.value + "\r\n"
        }
        text += "\r\n"
        return Data(text.utf8)
    }

    /// Sends `head` followed by `body` in slices (small bodies go out in the same write).
    func send(_ head: Data, then body: Data) -> Bool {
        if body.count <= Self.sliceSize {
            return send(head + body)
        }
        guard send(head) else { return false }
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + Self.sliceSize)
            guard send(body[(body.startIndex + offset)..<(body.startIndex + end)]) else { return false }
            offset = end
        }
        return true
    }

    /// Writes all of `data`; `false` if the peer is gone.
    func send<D: DataProtocol & ContiguousBytes>(_ data: D) -> Bool {
        data.withUnsafeBytes { POSIXSocket.sendAll(fd, $0) }
    }
}
