import CCurl
import CCurlShim
import Foundation

/// Loop-thread state of a transfer that streams a body in either direction, reports progress or
/// resumes a download. Plain requests never allocate one.
final class TransferFlow {
    /// Where a streamed request body comes from.
    enum Upload {
        case segments(SegmentCursor)
        case stream(UploadStreamBuffer)
    }

    var upload: Upload?
    /// The request body's size, when known.
    var uploadLength: Int64?
    /// Body bytes libcurl reported as sent (this hop).
    var uploaded: Int64 = 0
    /// The current response is a redirect that will be followed: its body is not the body.
    var discardingHop = false
    /// The final response's headers have arrived: download progress is reported from then on.
    var receivingBody = false
    /// The final response's expected body size (after `downloadBase`), when known.
    var downloadTotal: Int64?
    /// Bytes of a resumed download already on disk before this response.
    var downloadBase: Int64 = 0
    var progress: ProgressRelay?
    var progressInterval = Duration.milliseconds(100)
    var lastProgressReport: MonotonicInstant?
    /// An error found by Courier's own callbacks, reported instead of libcurl's code.
    var failure: CourierError?
    /// The final response's status, its validator (strong ETag or Last-Modified) and whether its
    /// body was content-encoded: what decides whether a failed download can be resumed.
    var finalStatus = 0
    var validator: String?
    var contentEncoded = false
}

/// Called by libcurl instead of `courierWriteCallback` for streamed responses: hands the body to
/// the response stream, pausing the transfer when the reader is a full window behind.
let courierStreamWriteCallback: courier_data_cb = { pointer, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.assertOnLoop()
    let length = size * count
    guard length > 0, let pointer else { return length }
    return transfer.streamBody(UnsafeRawBufferPointer(start: pointer, count: length))
}

/// The progress callback for flow transfers: activity for the idle check (deliberate pauses
/// count as activity), and throttled progress reports.
let courierFlowProgressCallback: courier_xferinfo_cb = { context, _, downloaded, _, uploaded in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    transfer.assertOnLoop()
    return transfer.flowTick(downloaded: Int64(downloaded), uploaded: Int64(uploaded)) ? 0 : 1
}

extension CurlTransfer {
    /// Sets up streaming and progress once the rest of the handle is configured.
    func configureFlow(_ easy: UnsafeMutableRawPointer) {
        let relay = token.options.progress.flatMap { $0.isObserved ? $0 : nil }
        let stream = token.options.responseStream
        guard relay != nil || stream != nil || flow != nil || token.options.destination != nil else { return }
        let flow = self.flow ?? TransferFlow()
        self.flow = flow
        flow.progress = relay
        if let relay { flow.progressInterval = relay.minimumInterval }
        if flow.upload == nil, let body = request.bodyData { flow.uploadLength = Int64(body.count) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        if let stream {
            stream.attach { [weak token] in token?.requestResume(.download) }
            courier_easy_setopt_data_cb(easy, CURLOPT_WRITEFUNCTION, courierStreamWriteCallback)
        }
        var streamsUpload = false
        if case .stream? = flow.upload { streamsUpload = true }
        if relay != nil || stream != nil || streamsUpload {
            set(easy, CURLOPT_NOPROGRESS, 0)
            courier_easy_setopt_xferinfo_cb(easy, courierFlowProgressCallback)
            set(easy, CURLOPT_XFERINFODATA, pointer: context)
        }
    }

    /// Carries out ``TransferLifecycle/Action/unpause``: tells libcurl which directions are still
    /// paused. Loop thread; the handle is in the multi.
    func unpause() {
        guard let easy = easyPointer else { return }
        // The idle clock restarts now: the pause was the reader's or producer's, not the
        // server's, and the next byte may take a moment to move.
        lastActivity = .now
        let state = lifecycle.state
        let stillPaused = (state.receivePaused ? CURLPAUSE_RECV : 0) | (state.sendPaused ? CURLPAUSE_SEND : 0)
        // libcurl may call the write callback from here, which may pause again (an event the
        // transfer feeds its lifecycle itself).
        curl_easy_pause(easy, stillPaused)
    }

    /// A callback paused `direction`: recorded in the lifecycle, which asks for no action (the
    /// callback's return value is the pause).
    func notePaused(_ direction: TransferDirection) {
        let step = lifecycle.handle(.pause(direction))
        assert(step.actions.isEmpty, "a pause asks the loop for nothing")
    }

    func streamBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let flow, let stream = token.options.responseStream else { return 0 }
        if flow.discardingHop { return bytes.count }
        if let limit = bodyLimit, receivedBodyBytes + bytes.count > limit {
            exceededSizeLimit = true
            return 0
        }
        switch stream.offer(bytes) {
        case .refused:
            notePaused(.download)
            return Int(CURL_WRITEFUNC_PAUSE)
        case .acceptedFlushLater:
            reports.post(.bytesQueued(stream))
        case .accepted:
            break
        }
        receivedBodyBytes += bytes.count
        return bytes.count
    }

    /// At the end of a response's headers (after `headersEnded`); false aborts the transfer
    /// (with `flow.failure` set).
    func flowHeadersEnded() -> Bool {
        guard let flow else { return true }
        flow.discardingHop = isRedirectToFollow
        flow.receivingBody = !flow.discardingHop
        guard !flow.discardingHop else { return true }
        let encoded =
            headParser.fields.first(named: "Content-Encoding") { !$0.caseInsensitiveEquals("identity") } != nil
        flow.finalStatus = headParser.statusCode
        flow.contentEncoded = encoded
        flow.validator = ResumeData.validator(in: headParser.fields)
        flow.downloadTotal = encoded ? nil : headParser.declaredLength.map(Int64.init)
        guard placeResumedBody() else { return false }
        if let stream = token.options.responseStream {
            let url = request.url
            stream.deliverHead(
                ResponseHead(
                    url: url, statusCode: headParser.statusCode,
                    httpVersion: currentHTTPVersion, fields: headParser.fields.frozen(in: .shared)))
        }
        return true
    }

    /// Whether the response whose headers just ended is a redirect the engine will follow.
    private var isRedirectToFollow: Bool {
        let location = headParser.fields.first(named: "Location") { !$0.isEmpty }
        return RedirectDecision.willFollow(
            status: headParser.statusCode, location: location, policy: token.options.redirectPolicy)
    }

    private var currentHTTPVersion: String? {
        guard let easy = easyPointer else { return nil }
        var version = 0
        courier_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): return HTTPVersion.http1_0.rawValue
        case Int(CURL_HTTP_VERSION_1_1): return HTTPVersion.http1_1.rawValue
        case Int(CURL_HTTP_VERSION_2_0): return HTTPVersion.http2.rawValue
        case Int(CURL_HTTP_VERSION_3): return HTTPVersion.http3.rawValue
        default: return nil
        }
    }

    /// The progress callback's work; always true (the engine's loop enforces the idle limit).
    func flowTick(downloaded: Int64, uploaded: Int64) -> Bool {
        guard let flow else { return true }
        flow.uploaded = uploaded
        if lifecycle.state.isPaused {
            // Waiting for the reader or the producer is not the server being idle.
            lastActivity = .now
            lastProgress = (downloaded, uploaded)
        } else if token.options.idleTimeout != nil {
            noteProgress(downloaded: downloaded, uploaded: uploaded)
        }
        guard let relay = flow.progress else { return true }
        let now = MonotonicInstant.now
        if let last = flow.lastProgressReport, now - last < flow.progressInterval { return true }
        flow.lastProgressReport = now
        relay.report(
            download: flow.receivingBody ? downloadProgress(finished: false) : nil,
            upload: uploadProgress(finished: false))
        return true
    }

    private func downloadProgress(finished: Bool) -> TransferProgress {
        guard let flow else { return TransferProgress(completedBytes: 0, totalBytes: nil) }
        let received = flow.downloadBase + Int64(flow.discardingHop ? 0 : receivedBodyBytes)
        let total = flow.downloadTotal.map { flow.downloadBase + $0 }
        return TransferProgress(
            completedBytes: received, totalBytes: total ?? (finished ? received : nil),
            isFinished: finished)
    }

    private func uploadProgress(finished: Bool) -> TransferProgress {
        guard let flow else { return TransferProgress(completedBytes: 0, totalBytes: nil) }
        let sent = finished ? max(flow.uploaded, flow.uploadLength ?? 0) : flow.uploaded
        return TransferProgress(
            completedBytes: sent, totalBytes: flow.uploadLength ?? (finished ? sent : nil),
            isFinished: finished)
    }

    /// Stops a streamed upload's producer and sends the final progress, `totals`. Called once, by
    /// `finish`.
    func finishFlow(_ totals: TransferTotals) {
        guard let flow else { return }
        if case .stream(let buffer)? = flow.upload { buffer.close() }
        flow.upload = nil
        flow.progress?.finish(download: totals.download, upload: totals.upload)
    }

    /// The final progress of the transfer in both directions, whether or not anyone observed it
    /// while it ran: body bytes received (kept bytes included for a continued download) and body
    /// bytes sent, with their totals when the transfer succeeded.
    func finalProgress(error: CourierError?) -> TransferTotals {
        var download: TransferProgress
        var upload: TransferProgress
        if flow != nil {
            download = downloadProgress(finished: error == nil)
            upload = uploadProgress(finished: error == nil)
        } else {
            let received = Int64(receivedBodyBytes)
            let length = Int64(request.bodyData?.count ?? 0)
            download = TransferProgress(completedBytes: received, totalBytes: error == nil ? received : nil)
            upload = TransferProgress(completedBytes: error == nil ? length : 0, totalBytes: length)
        }
        download.isFinished = true
        upload.isFinished = true
        return TransferTotals(download: download, upload: upload)
    }
}

extension CurlEngineLoop {
    /// How long a stream's reader may wait for bytes already queued while the body keeps coming.
    static let streamFlushHold = Duration.milliseconds(1)
    /// Streams with less than this queued wake their reader at the end of the round (a trickle
    /// of events or lines is never held back).
    static let streamFlushHoldMinimum = 32 << 10

    /// After a round: wakes the readers waiting for bytes queued in it, except readers of a fast
    /// body (at least ``streamFlushHoldMinimum`` queued), which are held for at most
    /// ``streamFlushHold``: the next rounds bring more, and one wake-up then covers several rounds
    /// (the buffer itself wakes its reader once half its window is ready). Returns how long the
    /// loop may wait in `curl_multi_poll` before it must come back to wake them, or nil when
    /// nothing is held. Loop thread.
    func flushStreams(now: MonotonicInstant) -> Duration? {
        guard !streamsToFlush.isEmpty else { return nil }
        let since = streamsFlushHeldSince ?? now
        let remaining = Self.streamFlushHold - (now - since)
        if remaining > .zero {
            streamsToFlush.removeAll { stream in
                guard stream.queuedBytes < Self.streamFlushHoldMinimum else { return false }
                stream.flush()
                return true
            }
            if !streamsToFlush.isEmpty {
                streamsFlushHeldSince = since
                return remaining
            }
        }
        streamsFlushHeldSince = nil
        for stream in streamsToFlush { stream.flush() }
        streamsToFlush.removeAll(keepingCapacity: true)
        return nil
    }
}
