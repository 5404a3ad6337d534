import Courier
import Dispatch
import Foundation
import CourierSync
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// A session that never touches the network: `responder` answers every request.
    ///
    /// Everything above the transport runs as usual — default headers, validation, serializers,
    /// services and `NetworkResult` mapping, cancellation — so tests exercise the real pipeline:
    /// ```swift
    /// let session = Session.stubbed { request in
    ///     request.url?.path == "/auth/signin" ? .json(#"{"status":409,"success":false,"message":"wrong password"}"#,
    ///                                                 statusCode: 409)
    ///                                         : .empty(statusCode: 404)
    /// }
    /// ```
    /// `responder` runs on a global queue, once per request (once per redirect hop is not modelled:
    /// stubs answer the request as sent).
    public static func stubbed(configuration: Configuration = Configuration(),
                               _ responder: @escaping @Sendable (URLRequest) -> StubResponse) -> Session {
        Session(configuration: configuration, transport: StubTransport(responder: responder))
    }
}

/// Answers requests from a closure, honouring delays, cancellation, size limits and downloads.
final class StubTransport: Transport {
    let responder: @Sendable (URLRequest) -> StubResponse

    init(responder: @escaping @Sendable (URLRequest) -> StubResponse) {
        self.responder = responder
    }

    func execute(_ request: URLRequest, options: TransferOptions,
                 completion: @escaping @Sendable (TransportResult) -> Void) -> any TransportCancellable {
        let call = StubCall(request: request, options: options, completion: completion)
        DispatchQueue.global().async { [responder] in
            let stub = responder(request)
            if stub.delay > 0 {
                DispatchQueue.global().asyncAfter(deadline: .now() + stub.delay) { call.answer(with: stub) }
            } else {
                call.answer(with: stub)
            }
        }
        return call
    }
}

/// One stubbed request: completes exactly once, with the stub or with `.cancelled`.
final class StubCall: TransportCancellable {
    private let request: URLRequest
    private let options: TransferOptions
    private let completion: @Sendable (TransportResult) -> Void
    private let finished = Locked(false)

    init(request: URLRequest, options: TransferOptions, completion: @escaping @Sendable (TransportResult) -> Void) {
        self.request = request
        self.options = options
        self.completion = completion
    }

    func cancel() {
        finish(TransportResult(request: request, head: nil, data: Data(), metrics: nil, error: .cancelled))
    }

    func answer(with stub: StubResponse) {
        finish(result(for: stub))
    }

    private func finish(_ result: TransportResult) {
        let first = finished.withLock { done in
            defer { done = true }
            return !done
        }
        if first { completion(result) }
    }

    private func result(for stub: StubResponse) -> TransportResult {
        if let error = stub.error {
            return TransportResult(request: request, head: nil, data: Data(), metrics: nil, error: error)
        }
        let head = request.url.map {
            ResponseHead(url: $0, statusCode: stub.statusCode, httpVersion: "HTTP/1.1",
                         fields: stub.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
        if let limit = options.bodyLimit, stub.body.count > limit {
            return TransportResult(request: request, head: head, data: Data(), metrics: nil,
                                   error: .responseTooLarge(limit: limit))
        }
        var body = stub.body
        if let destination = options.destination {
            do {
                try stub.body.write(to: destination)
                body = Data()
            } catch {
                return TransportResult(request: request, head: head, data: Data(), metrics: nil,
                                       error: .invalidRequest(reason: "cannot write download destination: \(error)"))
            }
        }
        let metrics = TransferMetrics(bytesReceived: Int64(stub.body.count), httpVersion: .http1_1)
        return TransportResult(request: request, head: head, data: body, metrics: metrics, error: nil)
    }
}
