import CCurl
import CCurlShim
import Foundation

/// Starting, finishing and following transfers: the loop feeds each transfer's
/// ``TransferLifecycle`` its events and carries out the actions it answers with. Loop thread only.
extension CurlEngineLoop {
    /// Feeds `event` to the transfer's lifecycle and carries out the actions; `result` is what
    /// the transfer finishes with when the event ends it (other than by cancelling).
    func handle(_ transfer: CurlTransfer, _ event: TransferLifecycle.Event, result: CourierError? = nil) {
        // One access to the transfer's lifecycle; the loop's own counter only when it changes.
        let step = transfer.lifecycle.handle(event)
        let wasInMulti = step.from.isInMulti
        if (step.from == .held) != (step.to == .held) { heldCount += step.to == .held ? 1 : -1 }
        for action in step.actions {
            switch action {
            case .hold:
                admission.submit(transfer.id, origin: transfer.multiplexOrigin ?? "")
                if transfer.requestDeadline != nil { scheduleDeadline(of: transfer, now: .now, inLibcurl: false) }
            case .start:
                start(transfer)
            case .leaveAdmission:
                admission.remove(transfer.id)
                deadlines.remove(transfer)
            case .detach:
                detach(transfer, fromMulti: wasInMulti)
            case .unpause:
                transfer.unpause()
            case .resubmit:
                transfer.beginNextHop()
                submit(transfer)
            case .finish(let reason):
                transfers.remove(transfer.id)
                transfer.finish(error: reason == .cancelled ? .cancelled : result)
            }
        }
    }

    /// Takes a new transfer (or the next hop of a redirect): starts it, or, for an HTTP/2
    /// origin, hands it to ``admission`` which starts it when a stream is likely free.
    func submit(_ transfer: CurlTransfer) {
        if transfer.token.isCancelRequested || transfer.token.options.sessionEpoch < cancelledBeforeEpoch {
            handle(transfer, .cancel)
        } else {
            handle(transfer, .submit(multiplexed: transfer.multiplexOrigin != nil))
        }
    }

    /// Cancels every transfer of a request made before `epoch` (``Session/cancelAll()``), and
    /// those that reach the loop later (``submit(_:)`` checks).
    func cancelAll(before epoch: UInt64) {
        guard epoch > cancelledBeforeEpoch else { return }
        cancelledBeforeEpoch = epoch
        for transfer in transfers.values where transfer.token.options.sessionEpoch < epoch {
            handle(transfer, .cancel)
        }
    }

    /// Sizes libcurl's connection cache from every transfer of the loop, for each new transfer.
    /// Left to itself, libcurl keeps at most four idle connections per handle in the multi at the
    /// moment a connection comes back, so it closes connections whenever few transfers are in
    /// it: those held in ``admission`` (measured: 197 new connections for 1,000 requests 50 at a
    /// time against a server allowing one stream, 44 with a larger cache), and those between a
    /// completion and their caller's next request (W2: 210 to 862 connections for 30,000
    /// requests 64 at a time, 64 with this; Round 30). The size is at least 64, and four per
    /// transfer, as libcurl's own, and does not shrink when the transfers end; libcurl still
    /// closes a cached connection idle for longer than its maximum age (`CURLOPT_MAXAGE_CONN`)
    /// when it next looks for one, and the session's shutdown closes them all.
    func keepConnectionCache() {
        let wanted = 4 * transfers.count
        guard wanted > connectionCache else { return }
        connectionCache = max(64, 1 << (Int.bitWidth - (wanted - 1).leadingZeroBitCount))
        courier_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, connectionCache)
    }

    /// Starts the transfers ``admission`` lets through; returns how many.
    @discardableResult
    func startAdmitted() -> Int {
        guard heldCount > 0 else { return 0 }
        var started = 0
        for id in admission.admit() {
            guard let transfer = transfers[id], transfer.lifecycle.state == .held else { continue }
            // Rescheduled (with its idle limit) once in libcurl; gone if it cannot start.
            deadlines.remove(transfer)
            handle(transfer, .admit)
            started += 1
        }
        return started
    }

    /// Configures the transfer's handle and adds it to the multi; reports the outcome to the
    /// transfer's lifecycle.
    private func start(_ transfer: CurlTransfer) {
        guard let handle = obtainHandle(for: transfer.handleProfile) else {
            self.handle(transfer, .startFailed, result: .transport(code: -1, message: "curl_easy_init failed"))
            return
        }
        let error = transfer.prepare(
            handle, share: share, hasCookieJar: cookieJar != nil, headerLists: &headerLists,
            urlHandles: &urlHandles)
        if let error {
            self.handle(transfer, .startFailed, result: error)
            return
        }
        guard let easy = transfer.easyPointer else {
            self.handle(
                transfer, .startFailed, result: .transport(code: -1, message: "Could not create a transfer handle"))
            return
        }
        let code = curl_multi_add_handle(multi, easy)
        guard code == CURLM_OK else {
            self.handle(
                transfer, .startFailed,
                result: .transport(code: Int(code.rawValue), message: "curl_multi_add_handle failed"))
            return
        }
        self.handle(transfer, .started)
        if transfer.requestDeadline != nil || transfer.token.options.idleTimeout != nil {
            scheduleDeadline(of: transfer, now: transfer.hopStartedAt ?? .now, inLibcurl: true)
        }
    }

    /// Takes the transfer's handle out of the multi (if it is there) and gives it back to the
    /// pool; the transfer leaves admission and the deadlines.
    private func detach(_ transfer: CurlTransfer, fromMulti: Bool) {
        // Only a transfer to an HTTP/2 origin is ever in admission, and one with a limit in the
        // deadlines.
        if transfer.multiplexOrigin != nil { admission.remove(transfer.id) }
        if transfer.deadlineSlot >= 0 { deadlines.remove(transfer) }
        if fromMulti, let easy = transfer.easyPointer {
            curl_multi_remove_handle(multi, easy)
        }
        if let handle = transfer.releaseHandle() {
            recycle(handle)
        }
    }

    @discardableResult
    func collectFinished() -> Int {
        var count = 0
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard courier_msg_is_done(message) != 0, let easy = courier_msg_easy(message) else { continue }
            count += 1
            let code = courier_msg_result(message)
            // Every handle in the multi is a transfer of this loop's, in a state that holds it there.
            guard let transfer = CurlTransfer.from(easy: easy), transfer.lifecycle.state.isInMulti else { continue }
            // Everything that needs the handle happens before it is removed and freed.
            takeReports()
            let (end, error) = transfer.evaluate(code: code)
            if transfer.headParser.majorVersion == 1, let origin = transfer.multiplexOrigin {
                admission.markSerial(origin: origin)
            }
            handle(transfer, .hopEnded(end), result: error)
        }
        return count
    }

    /// Takes the transfers' reports of the last perform: tells ``admission`` which connections
    /// delivered an HTTP/2 response head (so their server's settings are known) and which origins
    /// answered with HTTP/1.x, and notes the streams to flush. Called before a finished transfer
    /// leaves ``admission``.
    func takeReports() {
        guard !reports.isEmpty else { return }
        observePlacements()
        reports.drain { report in
            switch report {
            case .bytesQueued(let stream):
                streamsToFlush.append(stream)
            case .headArrived(let transfer):
                guard let easy = transfer.easyPointer else { return }
                if transfer.headParser.majorVersion == 1, let origin = transfer.multiplexOrigin {
                    // An HTTP/1.x origin: no settings to wait for, and no streams to share.
                    admission.markSerial(origin: origin)
                    return
                }
                var port = 0
                courier_easy_getinfo_long(easy, CURLINFO_LOCAL_PORT, &port)
                admission.responseArrived(transfer.id, connection: port)
            }
        }
    }

    /// Tells ``admission`` where the transfers it started have landed: on an open connection,
    /// opening one of their own, or still waiting.
    func observePlacements() {
        for id in admission.unplaced {
            guard let transfer = transfers[id], transfer.lifecycle.state.isInMulti,
                let easy = transfer.easyPointer
            else { continue }
            var preTransfer: curl_off_t = 0
            var connects = 0
            courier_easy_getinfo_off_t(easy, CURLINFO_PRETRANSFER_TIME_T, &preTransfer)
            courier_easy_getinfo_long(easy, CURLINFO_NUM_CONNECTS, &connects)
            if preTransfer > 0 {
                var port = 0
                courier_easy_getinfo_long(easy, CURLINFO_LOCAL_PORT, &port)
                admission.observe(id, .joined(connection: port, isNew: connects > 0))
            } else {
                admission.observe(id, connects > 0 ? .opening : .waiting)
            }
        }
    }
}
