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
        if let limit = options.bodyLimit, receivedBodyBytes > limit {
            exceededSizeLimit = true
            return false
        }
        if fileDescriptor >= 0 { return writeToDestination(bytes) }
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
        // Byte-level parsing: only the name and value become Strings.
        if end > 5, bytes[0] == 0x48, bytes[1] == 0x54, bytes[2] == 0x54, bytes[3] == 0x50, bytes[4] == 0x2F {
            // "HTTP/…": a new response (after 1xx, or a new hop) — forget what came before.
            responseHeaders.removeAll(keepingCapacity: true)
            declaredLength = nil
            statusCode = Self.statusCode(in: UnsafeRawBufferPointer(rebasing: bytes[0..<end])) ?? statusCode
            return
        }
        guard let colon = bytes[0..<end].firstIndex(of: 0x3A) else { return }
        var nameEnd = colon
        while nameEnd > 0, Self.isBlank(bytes[nameEnd - 1]) { nameEnd -= 1 }
        guard nameEnd > 0 else { return }
        var valueStart = colon + 1
        while valueStart < end, Self.isBlank(bytes[valueStart]) { valueStart += 1 }
        var valueEnd = end
        while valueEnd > valueStart, Self.isBlank(bytes[valueEnd - 1]) { valueEnd -= 1 }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[0..<nameEnd]), as: UTF8.self)
        let value = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)
        responseHeaders.append((name, value))
        if nameEnd == 14, Self.equalsIgnoringCase(UnsafeRawBufferPointer(rebasing: bytes[0..<nameEnd]), "content-length") {
            declaredLength = Int(value)
        }
    }

    /// At the blank line after a final response's headers: size the body buffer once.
    private func headersEnded() {
        guard statusCode >= 200, fileDescriptor < 0, body.isEmpty, let length = declaredLength else { return }
        if length > 0, length <= (options.bodyLimit ?? 1 << 30) {
            body.reserveCapacity(length)
        }
    }

    /// The three digits after the first space of a status line.
    static func statusCode(in line: UnsafeRawBufferPointer) -> Int? {
        guard let space = line.firstIndex(of: 0x20), space + 3 <= line.count else { return nil }
        var code = 0
        for index in space + 1..<space + 4 {
            let digit = Int(line[index]) - 0x30
            guard (0...9).contains(digit) else { return nil }
            code = code * 10 + digit
        }
        return code
    }

    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// ASCII case-insensitive comparison with a lowercase literal.
    static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeRawBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        for index in 0..<bytes.count where bytes[index] | 0x20 != expected[index] {
            return false
        }
        return true
    }
}
