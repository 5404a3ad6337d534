import CCurl
import CCurlShim
import Foundation

/// Starting, finishing and following transfers. Loop thread only.
extension CurlEngine {
    /// Takes a new transfer (or the next hop of a redirect): starts it, or, for an HTTP/2
    /// origin, hands it to ``admission`` which starts it when a stream is likely free.
    func attach(_ transfer: CurlTransfer) {
        guard !transfer.isFinished else { return }
        if transfer.isCancelRequested || transfer.options.sessionEpoch < cancelledBeforeEpoch {
            transfer.finish(error: .cancelled)
            return
        }
        guard let origin = transfer.multiplexOrigin else {
            start(transfer)
            return
        }
        let id = ObjectIdentifier(transfer)
        held[id] = transfer
        admission.submit(id, origin: origin)
        if transfer.requestDeadline != nil { scheduleDeadline(of: transfer, now: .now, inLibcurl: false) }
    }

    /// Cancels every transfer of a request made before `epoch` (``Session/cancelAll()``), and
    /// those that reach the loop later (``attach(_:)`` checks).
    func cancelAll(before epoch: UInt64) {
        guard epoch > cancelledBeforeEpoch else { return }
        cancelledBeforeEpoch = epoch
        for transfer in Array(active.values) where transfer.options.sessionEpoch < epoch {
            detach(transfer)
            transfer.finish(error: .cancelled)
        }
        for transfer in Array(held.values) where transfer.options.sessionEpoch < epoch {
            dropHeld(transfer)
            transfer.finish(error: .cancelled)
        }
    }

    /// Starts the transfers ``admission`` lets through; returns how many.
    @discardableResult
    func startAdmitted() -> Int {
        guard !held.isEmpty else { return 0 }
        var started = 0
        for id in admission.admit() {
            guard let transfer = held.removeValue(forKey: id) else { continue }
            // Rescheduled (with its idle limit) once in libcurl; gone if it cannot start.
            deadlines.remove(transfer)
            start(transfer)
            started += 1
        }
        return started
    }

    /// Configures the transfer's handle and adds it to the multi.
    private func start(_ transfer: CurlTransfer) {
        if let error = transfer.prepare(share: share) {
            admission.remove(ObjectIdentifier(transfer))
            transfer.releaseHandle()
            transfer.finish(error: error)
            return
        }
        guard let easy = transfer.easy else {
            admission.remove(ObjectIdentifier(transfer))
            transfer.finish(error: .transport(code: -1, message: "Could not create a transfer handle"))
            return
        }
        let code = curl_multi_add_handle(multi, easy)
        guard code == CURLM_OK else {
            admission.remove(ObjectIdentifier(transfer))
            transfer.releaseHandle()
            transfer.finish(error: .transport(code: Int(code.rawValue), message: "curl_multi_add_handle failed"))
            return
        }
        active[ObjectIdentifier(transfer)] = transfer
        if transfer.requestDeadline != nil || transfer.options.idleTimeout != nil {
            scheduleDeadline(of: transfer, now: transfer.hopStartedAt ?? .now, inLibcurl: true)
        }
    }

    /// Removes the transfer's handle from the multi and frees it.
    func detach(_ transfer: CurlTransfer) {
        let id = ObjectIdentifier(transfer)
        active.removeValue(forKey: id)
        admission.remove(id)
        deadlines.remove(transfer)
        if let easy = transfer.easy {
            curl_multi_remove_handle(multi, easy)
        }
        transfer.releaseHandle()
    }

    /// Takes a transfer that never started out of the admission queue.
    func dropHeld(_ transfer: CurlTransfer) {
        let id = ObjectIdentifier(transfer)
        held.removeValue(forKey: id)
        admission.remove(id)
        deadlines.remove(transfer)
    }

    @discardableResult
    func collectFinished() -> Int {
        var count = 0
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard courier_msg_is_done(message) != 0, let easy = courier_msg_easy(message) else { continue }
            count += 1
            let code = courier_msg_result(message)
            guard let transfer = CurlTransfer.from(easy: easy),
                active[ObjectIdentifier(transfer)] != nil
            else { continue }
            // Everything that needs the handle happens before it is removed and freed.
            noteHeadsArrived()
            let outcome = transfer.evaluate(code: code)
            if transfer.headParser.majorVersion == 1, let origin = transfer.multiplexOrigin {
                admission.markSerial(origin: origin)
            }
            detach(transfer)
            switch outcome {
            case .complete(let error):
                transfer.finish(error: error)
            case .redirect(let next):
                transfer.beginRedirect(to: next)
                attach(transfer)
            case .resend:
                transfer.beginResend()
                attach(transfer)
            case .resendOverHTTP1:
                transfer.beginHTTP1Resend()
                attach(transfer)
            }
        }
        return count
    }

    /// Tells ``admission`` which connections delivered an HTTP/2 response head (so their server's
    /// settings are known) and which origins answered with HTTP/1.x; called before a finished
    /// transfer leaves ``admission``.
    func noteHeadsArrived() {
        guard !headsArrived.isEmpty else { return }
        observePlacements()
        for transfer in headsArrived {
            guard let easy = transfer.easy else { continue }
            if transfer.headParser.majorVersion == 1, let origin = transfer.multiplexOrigin {
                // An HTTP/1.x origin: no settings to wait for, and no streams to share.
                admission.markSerial(origin: origin)
                continue
            }
            var port = 0
            courier_easy_getinfo_long(easy, CURLINFO_LOCAL_PORT, &port)
            admission.responseArrived(ObjectIdentifier(transfer), connection: port)
        }
        headsArrived.removeAll(keepingCapacity: true)
    }

    /// Tells ``admission`` where the transfers it started have landed: on an open connection,
    /// opening one of their own, or still waiting.
    func observePlacements() {
        guard !active.isEmpty else { return }
        for id in admission.unplaced {
            guard let easy = active[id]?.easy else { continue }
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
