import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the engine needs to carry out one request, resolved from the session configuration.
package struct TransferOptions: Sendable {
    var connectTimeout: TimeInterval?
    var requestTimeout: TimeInterval?
    var idleTimeout: TimeInterval?
    var redirectPolicy: Session.RedirectPolicy
    var security: SecurityPolicy
    var automaticDecompression: Bool
    var tls: Session.TLSConfiguration
    var proxy: Session.Proxy
    var httpVersion: Session.HTTPVersion
    var tcpKeepAlive: Bool
    var receiveBufferSize: Int?
    /// libcurl's upload buffer for bodies read through the read callback; nil keeps its 64 KiB.
    var uploadBufferSize: Int?
    /// When set, the final response body is written to this file instead of memory.
    package var destination: URL?
    /// When set, progress is reported here (only read when someone observes it).
    package var progress: ProgressRelay?
    /// When set, the final response's head and body are handed here as they arrive, with
    /// backpressure, instead of being collected in memory.
    package var responseStream: ResponseStreamBuffer?

    /// The body size limit that applies: ``SecurityPolicy/maxDownloadSize`` for a download to a
    /// file or a streamed response, ``SecurityPolicy/maxResponseSize`` for a body held in memory.
    package var bodyLimit: Int? {
        destination == nil && responseStream == nil ? security.maxResponseSize : security.maxDownloadSize
    }
}

/// The outcome of one transfer, before validation and serialization.
package struct TransportResult: Sendable {
    /// The request as last sent (after redirects).
    var request: URLRequest
    var head: ResponseHead?
    var data: Data
    var metrics: TransferMetrics?
    var error: CourierError?

    package init(request: URLRequest, head: ResponseHead?, data: Data, metrics: TransferMetrics?,
                 error: CourierError?) {
        self.request = request
        self.head = head
        self.data = data
        self.metrics = metrics
        self.error = error
    }
}

/// Cancels a transfer that a transport started; safe to call from any thread, any number of times.
package protocol TransportCancellable: Sendable {
    func cancel()
}

/// The seam between the Session and what actually moves bytes: the curl engine, or a stub.
///
/// `execute` must call `completion` exactly once, on any thread, including after `cancel()`.
package protocol Transport: Sendable {
    func execute(
        _ request: URLRequest,
        options: TransferOptions,
        completion: @escaping @Sendable (TransportResult) -> Void
    ) -> any TransportCancellable
}
