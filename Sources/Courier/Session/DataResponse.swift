import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything known about a finished request: what was sent, what came back, how long it took,
/// and the serialized value or the error.
public struct DataResponse<Value: Sendable>: Sendable {
    /// The request as last sent (after redirects), or nil if it could not be built.
    public let request: HTTPRequest?
    /// The status line and headers, if a response arrived (also with some errors, such as a truncated body).
    let responseHead: ResponseHead?
    /// The body bytes received, if any.
    public let data: Data?
    /// libcurl's timings and counters, if a transfer took place.
    public let metrics: TransferMetrics?
    /// The serialized value, or the error that prevented it.
    public internal(set) var result: Result<Value, CourierError>
    /// What only a download has (``fileURL``, ``resumeData``), held by reference: inline, the two
    /// made every response 73 bytes larger, and a request keeps two responses in its state (whose
    /// allocation then outgrew the allocator's per-thread cache).
    var download: DownloadParts?
    /// The transfer's final progress as the transport counted it, when it did (for progress
    /// observers that arrive late).
    var transferred: TransferTotals?

    /// For a ``Session/download(_:to:)`` that succeeded, the file holding the body; else nil.
    public internal(set) var fileURL: URL? {
        get { download?.fileURL }
        set { download = DownloadParts.make(fileURL: newValue, resumeData: download?.resumeData) }
    }
    /// For a ``Session/download(_:to:)`` that failed or was cancelled part-way, what is needed to
    /// continue it with ``Session/download(_:resumingWith:)``; nil otherwise.
    public internal(set) var resumeData: ResumeData? {
        get { download?.resumeData }
        set { download = DownloadParts.make(fileURL: download?.fileURL, resumeData: newValue) }
    }

    /// The status line and headers, if a response arrived (also present with some errors, such as
    /// a truncated body).
    public var head: HTTPResponseHead? { responseHead.map(HTTPResponseHead.init) }

    /// The response headers in arrival order (repeated names joined with ", "); empty without a response.
    public var headers: HTTPHeaders { responseHead?.headers ?? HTTPHeaders() }

    /// The value on success, else nil.
    public var value: Value? {
        if case .success(let value) = result { return value }
        return nil
    }

    /// The error on failure, else nil.
    public var error: CourierError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// The HTTP status code, if a response arrived.
    public var statusCode: Int? { responseHead?.statusCode }

    /// The same response with its value transformed.
    public func map<NewValue: Sendable>(_ transform: (Value) -> NewValue) -> DataResponse<NewValue> {
        DataResponse<NewValue>(
            request: request, responseHead: responseHead, data: data, metrics: metrics,
            result: result.map(transform), download: download)
    }

    /// The same response with its value transformed by a throwing function; a thrown
    /// ``CourierError`` (or any error, wrapped) becomes the failure.
    public func tryMap<NewValue: Sendable>(_ transform: (Value) throws -> NewValue) -> DataResponse<NewValue> {
        let mapped: Result<NewValue, CourierError>
        switch result {
        case .success(let value):
            do { mapped = .success(try transform(value)) } catch let error as CourierError {
                mapped = .failure(error)
            } catch {
                mapped = .failure(.invalidRequest(reason: String(describing: error)))
            }
        case .failure(let error):
            mapped = .failure(error)
        }
        return DataResponse<NewValue>(
            request: request, responseHead: responseHead, data: data, metrics: metrics, result: mapped,
            download: download)
    }
}

// The public initializer is in an extension so that the struct keeps its memberwise initializer
// (request, responseHead, data, metrics, result, download, transferred), which Courier
// uses: it builds a response in one piece, where an initializer assigning `self.x` one by one (or
// parts set after `init`) left the optimizer copying the whole value once more.
extension DataResponse {
    /// Creates a response; used by serializers and stubs.
    public init(
        request: HTTPRequest?, head: HTTPResponseHead?, data: Data?, metrics: TransferMetrics?,
        result: Result<Value, CourierError>
    ) {
        self.init(request: request, responseHead: head?.head, data: data, metrics: metrics, result: result)
    }
}

/// A placeholder value for responses that carry no body (204, HEAD) or whose body is ignored.
public struct Empty: Codable, Sendable, Equatable {
    /// The empty value.
    public init() {}
}

/// A downloaded file, or what continues a download that stopped: the parts of a
/// ``DataResponse`` that only downloads have, in one immutable object.
final class DownloadParts: Sendable {
    let fileURL: URL?
    let resumeData: ResumeData?

    private init(fileURL: URL?, resumeData: ResumeData?) {
        self.fileURL = fileURL
        self.resumeData = resumeData
    }

    /// Nil when there is neither: a response that is not a download holds no object. (A failable
    /// initializer would allocate the object before it could fail.)
    static func make(fileURL: URL?, resumeData: ResumeData?) -> DownloadParts? {
        // Matched, not compared with `== nil`: `ResumeData`'s `==` copied both optionals.
        if case .none = fileURL, case .none = resumeData { return nil }
        return DownloadParts(fileURL: fileURL, resumeData: resumeData)
    }
}
