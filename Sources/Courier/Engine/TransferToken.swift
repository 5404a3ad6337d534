import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One transfer as the caller hands it to the loop, and the caller's handle on it: what
/// ``CurlEngine/execute(_:options:completion:)`` returns, and what stream buffers hold (weakly) to
/// ask for more bytes. It carries everything the loop needs to create the ``CurlTransfer`` on its
/// own thread, and no transfer state: cancelling or resuming sends a command to the loop, which
/// finds the transfer by the token's identity. Immutable but for the cancel flag; any thread.
///
/// One object for both roles (it was two): a request then makes one allocation fewer. The
/// completion closure usually holds the request that holds this token, a cycle that ends when
/// the request publishes its outcome and lets go of the token (every request does, exactly once).
final class TransferToken: TransportCancellable {
    private let inbox: CurlEngine.Inbox
    private let cancelRequested = Atomic<Bool>(false)
    let request: HTTPRequest
    let options: TransferOptions
    /// When the whole request must be over (counted from submission), if it has a limit.
    let requestDeadline: MonotonicInstant?
    let completion: @Sendable (consuming TransportResult) -> Void
    /// The request's URL as text, and the origin its HTTP/2 streams are admitted under (see
    /// ``CurlTransfer/multiplexOrigin``): worked out here, on the caller's thread, so that the
    /// engine's thread does not (about 600 instructions per transfer).
    let urlText: String
    let multiplexOrigin: String?

    init(
        inbox: CurlEngine.Inbox, request: HTTPRequest, options: consuming TransferOptions,
        completion: @escaping @Sendable (consuming TransportResult) -> Void
    ) {
        self.inbox = inbox
        self.request = request
        self.completion = completion
        // From locals, not from the fields being set: each read of a field of `self` while it is
        // initialized was a retain and a release more. The text is moved in last: a copy counted
        // a reference on the URL's string, which every request to that URL shares.
        let url = request.url
        let text = url.absoluteString
        multiplexOrigin = CurlTransfer.multiplexOrigin(of: url, text: text, options: options)
        urlText = consume text
        requestDeadline = options.requestTimeout.flatMap { limit in
            limit > 0 ? MonotonicInstant.now.adding(milliseconds: CurlTransfer.milliseconds(limit)) : nil
        }
        // Last: the options are moved in, not copied.
        self.options = options
    }

    /// The identity of the transfer in the loop's tables and in ``StreamAdmission``.
    var id: ObjectIdentifier { ObjectIdentifier(self) }

    var isCancelRequested: Bool { cancelRequested.load(ordering: .acquiring) }

    /// Thread-safe; later calls and calls after completion do nothing.
    func cancel() {
        let (exchanged, _) = cancelRequested.compareExchange(
            expected: false, desired: true, ordering: .acquiringAndReleasing)
        if exchanged { inbox.send(.cancel(self)) }
    }

    /// Asks the loop to resume `direction`, which Courier paused for backpressure. Any thread.
    func requestResume(_ direction: TransferDirection) {
        inbox.send(.resume(self, direction))
    }

    /// Completes a request that never reached the loop (the engine had shut down): nothing was
    /// sent or received.
    func completeUnsent(_ error: CourierError) {
        let length = Int64(request.bodyData?.count ?? 0)
        var download = TransferProgress(completedBytes: 0, totalBytes: nil)
        var upload = TransferProgress(completedBytes: 0, totalBytes: length)
        download.isFinished = true
        upload.isFinished = true
        completion(
            TransportResult(
                request: request, head: nil, data: Data(), metrics: nil, error: error, resumeData: nil,
                transferred: TransferTotals(download: download, upload: upload)))
    }
}
