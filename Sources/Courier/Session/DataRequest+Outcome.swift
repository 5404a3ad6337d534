import Dispatch
import CourierSync
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a request ends with, and how it reaches response handlers and awaiting tasks.
extension DataRequest {
    /// The one shape of a response inside Courier: what the transport delivered, validated, as
    /// plugins see it (`didReceive` and `process` get this value itself, not a copy rebuilt for
    /// each) and as serializers turn it into the caller's ``DataResponse``.
    typealias Outcome = DataResponse<Data?>

    /// The caller's response for `outcome`, its value made by `serializer` (not called for a
    /// failed outcome). Response handlers call it in the closure they hand to `whenComplete`,
    /// which then captures only the handler: passed through a generic function, a handler of a
    /// concrete type was converted by a thunk, one allocation per request.
    static func makeResponse<Value: Sendable>(
        _ outcome: Outcome, serializer: (Outcome) -> Result<Value, CourierError>
    ) -> DataResponse<Value> {
        let result = value(of: outcome, serializer: serializer)
        let succeeded = if case .success = outcome.result { true } else { false }
        return DataResponse(
            request: outcome.request, responseHead: outcome.responseHead, data: outcome.data,
            metrics: outcome.metrics, result: result,
            download: succeeded ? outcome.download : DownloadParts.make(fileURL: nil, resumeData: outcome.resumeData))
    }

    /// The caller's value for `outcome` alone, as ``makeResponse(_:serializer:)`` would put it in
    /// the response's `result`: the accessors that return only the value (`data()`,
    /// `decodable(_:)`...) make no response to read it from.
    static func value<Value: Sendable>(
        of outcome: Outcome, serializer: (Outcome) -> Result<Value, CourierError>
    ) -> Result<Value, CourierError> {
        if case .failure(let error) = outcome.result { return .failure(error) }
        return serializer(outcome)
    }
}

extension DataResponse where Value == Data? {
    /// An outcome: `body` (nil as `data` when empty and no response arrived; nil as the value
    /// when empty), or `error`.
    init(
        request: HTTPRequest?, head: ResponseHead?, body: Data, metrics: TransferMetrics?,
        error: CourierError?, fileURL: URL? = nil, resumeData: ResumeData? = nil, transferred: TransferTotals? = nil
    ) {
        self.init(
            request: request, responseHead: head, data: body.isEmpty && head == nil ? nil : body,
            metrics: metrics, result: error.map { .failure($0) } ?? .success(body.isEmpty ? nil : body),
            download: DownloadParts.make(fileURL: fileURL, resumeData: resumeData), transferred: transferred)
    }

    /// An outcome that failed before any response: `error` alone.
    init(request: HTTPRequest?, failure error: CourierError) {
        self.init(request: request, head: nil, body: Data(), metrics: nil, error: error)
    }

    /// The body serializers read: the value on success (what the last plugin's `process` left),
    /// else the bytes that arrived; empty when there are none.
    var body: Data {
        if case .success(let value) = result { return value ?? Data() }
        return data ?? Data()
    }

    /// Turns the outcome into `error`, keeping what arrived; a downloaded file is removed.
    mutating func fail(_ error: CourierError) {
        result = .failure(error)
        discardFile()
    }

    /// Removes a downloaded file: a failed or rejected download leaves nothing behind.
    mutating func discardFile() {
        guard let file = fileURL else { return }
        try? FileManager.default.removeItem(at: file)
        fileURL = nil
    }
}
