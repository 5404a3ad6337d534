import Dispatch
import Foundation

/// Upload and download progress, as closures or async sequences.
///
/// Observe before the request starts (before the first response handler or async accessor):
/// ```swift
/// let request = session.download(FilesAPI.archive(id), to: file)
/// Task { for await progress in request.downloadProgress() { bar.update(progress.fractionCompleted) } }
/// let response = await request.validate().response()
/// ```
/// Values arrive at most once per `interval` (default 100 ms), never go backwards, carry the
/// total when it is known, and end with one value whose `isFinished` is set when the request
/// completes, successfully or not. Closures run on `queue` (default: the session's callback
/// queue), one at a time and in order, never on the engine thread.
extension DataRequest {
    /// Calls `handler` with the progress of sending the request body.
    @discardableResult
    public func uploadProgress(
        every interval: Duration = .milliseconds(100), queue: DispatchQueue? = nil,
        _ handler: @escaping @Sendable (TransferProgress) -> Void
    ) -> Self {
        progressRelay(create: true)?.observe(
            .upload, every: interval,
            queue: queue ?? session.configuration.callbackQueue, handler: handler)
        return self
    }

    /// Calls `handler` with the progress of receiving the response body.
    @discardableResult
    public func downloadProgress(
        every interval: Duration = .milliseconds(100), queue: DispatchQueue? = nil,
        _ handler: @escaping @Sendable (TransferProgress) -> Void
    ) -> Self {
        progressRelay(create: true)?.observe(
            .download, every: interval,
            queue: queue ?? session.configuration.callbackQueue, handler: handler)
        return self
    }

    /// The progress of sending the request body; the sequence ends when the request completes.
    /// A slow reader skips to the newest value.
    public func uploadProgress(every interval: Duration = .milliseconds(100)) -> AsyncStream<TransferProgress> {
        progressRelay(create: true)?.stream(.upload, every: interval) ?? AsyncStream { $0.finish() }
    }

    /// The progress of receiving the response body; the sequence ends when the request completes.
    /// A slow reader skips to the newest value.
    public func downloadProgress(every interval: Duration = .milliseconds(100)) -> AsyncStream<TransferProgress> {
        progressRelay(create: true)?.stream(.download, every: interval) ?? AsyncStream { $0.finish() }
    }
}

extension ProgressRelay {
    /// The final values when the engine did not send them itself (nobody observed when the
    /// transfer started, a stub, or a request that never reached the engine): the engine's count
    /// when there is one, else the body in memory. Does nothing when the engine already finished
    /// the relay.
    func finish(after outcome: DataRequest.Outcome) {
        if let totals = outcome.transferred {
            finish(download: totals.download, upload: totals.upload)
            return
        }
        let received = Int64(outcome.data?.count ?? 0)
        let sent = outcome.request?.body.length ?? 0
        let succeeded = outcome.error == nil
        finish(
            download: TransferProgress(completedBytes: received, totalBytes: succeeded ? received : nil),
            upload: TransferProgress(completedBytes: succeeded ? sent : 0, totalBytes: sent))
    }
}
