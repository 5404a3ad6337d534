import Dispatch
import Foundation

/// Download progress of a stream request, as a closure or an async sequence, as for a
/// ``DataRequest``: at most one value per `interval` (default 100 ms), never going backwards,
/// with the total when the server declares it, and ending with one value whose `isFinished` is
/// set when the request completes, successfully or not (a cancelled or abandoned stream too).
///
/// The count is of body bytes received from the network, which runs at most the buffer size
/// ahead of what the loop has read. Observe before the transfer starts (before the first
/// `head()`, `completion()` or read of the body):
/// ```swift
/// let stream = session.streamRequest(VideoAPI.file(id: 7))
/// Task { for await progress in stream.downloadProgress() { bar.update(progress.fractionCompleted) } }
/// for try await chunk in stream.validate().bytes { try output.write(contentsOf: chunk) }
/// ```
/// Closures run on `queue` (default: the session's callback queue), one at a time and in order,
/// never on the engine thread.
extension DataStreamRequest {
    /// Calls `handler` with the progress of receiving the response body.
    @discardableResult
    public func downloadProgress(
        every interval: Duration = .milliseconds(100), queue: DispatchQueue? = nil,
        _ handler: @escaping @Sendable (TransferProgress) -> Void
    ) -> Self {
        core.progress.observe(
            .download, every: interval, queue: queue ?? session.configuration.callbackQueue, handler: handler)
        return self
    }

    /// The progress of receiving the response body; the sequence ends when the request
    /// completes. A slow reader skips to the newest value.
    public func downloadProgress(every interval: Duration = .milliseconds(100)) -> AsyncStream<TransferProgress> {
        core.progress.stream(.download, every: interval)
    }
}
