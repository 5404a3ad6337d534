import Dispatch
import CourierSync
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a request ends with, and how it reaches response handlers and awaiting tasks.
extension DataRequest {
    /// What the transport delivered, plus the validation verdict.
    struct Outcome: Sendable {
        var request: HTTPRequest?
        var head: ResponseHead?
        var data: Data
        var metrics: TransferMetrics?
        var error: CourierError?
        var fileURL: URL? = nil
        /// How a failed download can continue (see ``ResumeData``).
        var resumeData: ResumeData? = nil
        /// The final progress as the transport counted it, when it did.
        var transferred: TransferTotals? = nil

        /// Removes a downloaded file: a failed or rejected download leaves nothing behind.
        mutating func discardFile() {
            guard let file = fileURL else { return }
            try? FileManager.default.removeItem(at: file)
            fileURL = nil
        }
    }

    /// Delivers a serialized response on `queue` (the session's callback queue when nil).
    func deliver<Value: Sendable>(
        on queue: DispatchQueue?,
        serializer: @escaping @Sendable (Outcome) -> Result<Value, CourierError>,
        completionHandler: @escaping @Sendable (DataResponse<Value>) -> Void
    ) {
        let queue = queue ?? session.configuration.callbackQueue
        whenComplete { outcome in
            queue.async {
                completionHandler(Self.makeResponse(outcome, serializer: serializer))
            }
        }
    }

    static func makeResponse<Value: Sendable>(
        _ outcome: Outcome, serializer: (Outcome) -> Result<Value, CourierError>
    ) -> DataResponse<Value> {
        let result: Result<Value, CourierError> = outcome.error.map { .failure($0) } ?? serializer(outcome)
        var response = DataResponse(
            request: outcome.request, responseHead: outcome.head,
            data: outcome.data.isEmpty && outcome.head == nil ? nil : outcome.data,
            metrics: outcome.metrics, result: result)
        response.fileURL = outcome.error == nil ? outcome.fileURL : nil
        response.resumeData = outcome.resumeData
        return response
    }
}
