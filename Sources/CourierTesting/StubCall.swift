import Courier
import CourierSync
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One stubbed transfer: completes exactly once, with its answer or with `.cancelled`.
final class StubCall: TransportCancellable {
    private let request: HTTPRequest
    private let options: TransferOptions
    /// Called once, then dropped: a caller's token that the completion holds is not kept alive.
    private let completion: Locked<(@Sendable (TransportResult) -> Void)?>

    init(request: HTTPRequest, options: TransferOptions, completion: @escaping @Sendable (TransportResult) -> Void) {
        self.request = request
        self.options = options
        self.completion = Locked(completion)
    }

    func cancel() {
        finish(TransportResult(request: request, error: .cancelled))
    }

    func answer(with stub: StubResponse) {
        guard !isFinished else { return }
        if let error = stub.error {
            finish(TransportResult(request: request, error: error))
        } else {
            finish(
                CannedResult.make(
                    for: request, options: options, statusCode: stub.statusCode,
                    headers: stub.headers, body: stub.body))
        }
    }

    private var isFinished: Bool { completion.withLock { $0 == nil } }

    private func finish(_ result: TransportResult) {
        let first = completion.withLock { completion in
            defer { completion = nil }
            return completion
        }
        first?(result)
    }
}
