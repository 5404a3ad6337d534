import CCurl
import CCurlShim
import Foundation

// libcurl calls these on the loop thread, with the transfer as user data (kept alive by the
// engine's table of active transfers for as long as the handle is in the multi).

/// Receives (decoded) body bytes.
let courierWriteCallback: courier_data_cb = { pointer, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard length > 0, let pointer else { return length }
    return transfer.receiveBody(UnsafeRawBufferPointer(start: pointer, count: length)) ? length : 0
}

/// Receives one header line at a time, for every response in the exchange (1xx, final, trailers).
let courierHeaderCallback: courier_data_cb = { pointer, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard length > 0, let pointer else { return length }
    transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: pointer, count: length))
    return length
}

/// Called by libcurl at least once a second while a transfer with an idle limit runs; aborts the
/// transfer when no byte moved in either direction for longer than the limit.
let courierProgressCallback: courier_xferinfo_cb = { context, _, downloaded, _, uploaded in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.checkIdle(downloaded: Int64(downloaded), uploaded: Int64(uploaded)) ? 0 : 1
}

extension CurlTransfer {
    /// Returns false (abort) when the transfer has been idle for longer than its idle limit.
    func checkIdle(downloaded: Int64, uploaded: Int64) -> Bool {
        let now = ContinuousClock.now
        if downloaded != lastProgress.0 || uploaded != lastProgress.1 {
            lastProgress = (downloaded, uploaded)
            lastActivity = now
            return true
        }
        guard let idle = options.idleTimeout, Self.seconds(now - lastActivity) > idle else { return true }
        idleTimedOut = true
        return false
    }

    /// Appends body bytes; returns false to abort when the size limit is exceeded.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        receivedBodyBytes += bytes.count
        if let limit = options.maxResponseSize, receivedBodyBytes > limit {
            exceededSizeLimit = true
            return false
        }
        body.append(bytes.assumingMemoryBound(to: UInt8.self))
        return true
    }

    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        if end == 0 {
            headersEnded()
            return
        }
        let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            // A new response (after 1xx, or a new hop): forget what came before.
            responseHeaders.removeAll(keepingCapacity: true)
            let parts = line.split(separator: " ", maxSplits: 2)
            if parts.count >= 2, let code = Int(parts[1]) { statusCode = code }
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
        let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return }
        responseHeaders.append((name, value))
    }

    /// At the blank line after a final response's headers: size the body buffer once.
    private func headersEnded() {
        guard statusCode >= 200, body.isEmpty else { return }
        for (name, value) in responseHeaders where name.caseInsensitiveCompare("Content-Length") == .orderedSame {
            if let length = Int(value), length > 0, length <= (options.maxResponseSize ?? 1 << 30) {
                body.reserveCapacity(length)
            }
            return
        }
    }
}
