import CCurl
import CCurlShim
import Foundation

// libcurl calls these on the loop thread, with the transfer as user data (kept alive by the
// loop's table of transfers for as long as the handle is in the multi). Each checks, in debug
// builds, that it runs on the loop thread.

/// Receives (decoded) body bytes.
let courierWriteCallback: courier_data_cb = { pointer, size, count, context in
    guard let context else { return 0 }
    let length = size * count
    guard length > 0, let pointer else { return length }
    // Borrowed, not retained: the loop's table keeps the transfer alive (a retain and a release
    // per call, ten calls per small response, cost ~400 instructions per request).
    return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef { transfer in
        transfer.assertOnLoop()
        return transfer.receiveBody(UnsafeRawBufferPointer(start: pointer, count: length)) ? length : 0
    }
}

/// Receives one header line at a time, for every response in the exchange (1xx, final, trailers).
let courierHeaderCallback: courier_data_cb = { pointer, size, count, context in
    guard let context else { return 0 }
    let length = size * count
    guard length > 0, let pointer else { return length }
    // Borrowed, as in `courierWriteCallback`.
    return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef { transfer in
        transfer.assertOnLoop()
        return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: pointer, count: length)) ? length : 0
    }
}

/// Called by libcurl at least once a second, and whenever bytes move, while a transfer with an
/// idle limit runs: records activity for the engine's idle check.
let courierProgressCallback: courier_xferinfo_cb = { context, _, downloaded, _, uploaded in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.assertOnLoop()
    transfer.noteProgress(downloaded: Int64(downloaded), uploaded: Int64(uploaded))
    return 0
}

extension CurlTransfer {
    /// Remembers when a byte last moved in either direction.
    func noteProgress(downloaded: Int64, uploaded: Int64) {
        guard downloaded != lastProgress.0 || uploaded != lastProgress.1 else { return }
        lastProgress = (downloaded, uploaded)
        lastActivity = .now
    }

    /// Appends body bytes; returns false to abort when the size limit is exceeded.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        receivedBodyBytes += bytes.count
        if let limit = bodyLimit, receivedBodyBytes > limit {
            exceededSizeLimit = true
            return false
        }
        if fileDescriptor >= 0 { return writeToDestination(bytes) }
        if body.isEmpty, let base = bytes.baseAddress, let length = headParser.declaredLength, length > 0,
            length <= (bodyLimit ?? 1 << 30)
        {
            // The first bytes of a body whose length the head declared: the whole body at once (a
            // small response's usual single call) is copied into a `Data` of its exact size, which
            // costs ~800 instructions less than an append into reserved room, in recycled memory
            // when its size has a class (see ``ResponseMemory``); a first part reserves the declared
            // length, so the body grows once.
            if bytes.count == length {
                body = ResponseMemory.shared.data(copying: bytes) ?? Data(bytes: base, count: length)
                return true
            }
            if length > bytes.count { body.reserveCapacity(length) }
        }
        body.append(bytes.assumingMemoryBound(to: UInt8.self))
        return true
    }

    /// Feeds one header line to the head parser; returns false (abort) when the head is rejected.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        switch headParser.take(bytes) {
        case .rejected:
            return false
        case .accepted:
            return true
        case .completedHead:
            guard flowHeadersEnded() else { return false }
            if multiplexOrigin != nil { reports.post(.headArrived(self)) }
            return true
        }
    }
}
