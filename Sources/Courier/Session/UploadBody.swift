import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request body for ``Session/upload(_:to:method:)``: bytes in memory, a file read from disk
/// while sending, a stream of chunks, or a multipart form.
///
/// ```swift
/// let receipt = try await session.upload(.file(videoURL), to: MediaAPI.upload)
///     .validate().decodable(Receipt.self)
/// ```
/// Files and streams go out with flat memory: libcurl pulls the body in pieces as it sends.
public struct UploadBody: Sendable {
    enum Storage: Sendable {
        case data(Data)
        case file(URL)
        case stream(length: Int64?, window: Int, producer: UploadStreamBuffer.Producer)
        case multipart(MultipartFormData)
    }

    let storage: Storage
    /// The `Content-Type` sent when the request has none.
    let contentType: String?

    /// Bytes already in memory.
    public static func data(_ data: Data, contentType: String? = nil) -> UploadBody {
        UploadBody(storage: .data(data), contentType: contentType)
    }

    /// A file, read from disk in pieces while it is sent. Its size is taken when the request is
    /// built and sent as `Content-Length` (a pipe or device is sent with chunked encoding); a
    /// missing or unreadable file fails the request with ``CourierError/invalidRequest``.
    public static func file(_ url: URL, contentType: String? = nil) -> UploadBody {
        UploadBody(storage: .file(url), contentType: contentType)
    }

    /// Chunks from an async sequence, sent as they come (chunked encoding unless `length`, the
    /// exact total, is given). At most `bufferSize` bytes wait between the sequence and the
    /// network: the sequence is not asked for more until libcurl has taken them. The sequence
    /// is iterated once: a redirect that must resend the body (307/308) or a retry fails with
    /// ``CourierError/invalidRequest``. An error thrown by the sequence fails the request.
    /// ```swift
    /// let chunks = AsyncStream<Data> { continuation in ... }
    /// let response = await session.upload(.stream(chunks), to: .url("https://example.com/ingest")).response()
    /// ```
    public static func stream<S: AsyncSequence & Sendable>(
        _ chunks: S, length: Int64? = nil, bufferSize: Int = 1 << 20, contentType: String? = nil
    ) -> UploadBody where S.Element == Data {
        let producer: UploadStreamBuffer.Producer = { buffer in
            for try await chunk in chunks {
                try Task.checkCancellation()
                guard await buffer.push(chunk) else { return }
            }
        }
        return UploadBody(
            storage: .stream(length: length, window: bufferSize, producer: producer),
            contentType: contentType)
    }

    /// A `multipart/form-data` form; file parts are streamed from disk (see ``MultipartFormData``).
    public static func multipart(_ form: MultipartFormData) -> UploadBody {
        UploadBody(storage: .multipart(form), contentType: form.contentType)
    }

    /// Puts this body into `request`, replacing any body it had, and sets `Content-Type` unless
    /// the request already has one.
    func apply(to request: inout HTTPRequest) throws(CourierError) {
        switch storage {
        case .data(let data):
            request.body = .data(data)
        case .file(let url):
            request.body = .segments(try UploadSegments.file(url))
        case .stream(let length, let window, let producer):
            request.body = .stream(UploadStreamBuffer(length: length, window: window, producer: producer))
        case .multipart(let form):
            do {
                request.body = .segments(try form.streamedBody())
            } catch let error as CourierError {
                throw error
            } catch {
                throw .multipartEncodingFailed(reason: String(describing: error))
            }
        }
        if let contentType, request.headers["Content-Type"] == nil {
            request.headers.update(.contentType(contentType))
        }
    }
}

extension Session {
    /// Prepares a request that sends `body`, read while sending for files, streams and forms:
    /// ```swift
    /// session.upload(.file(archive), to: BackupAPI.store(name: "db.tar"))
    ///     .uploadProgress { print($0) }
    ///     .validate()
    ///     .response { response in print(response.statusCode ?? 0) }
    /// ```
    /// The request comes from `convertible` (a ``Router`` case, `URLRequest`, `URL` or string);
    /// `body` replaces any body it had. `method` defaults to the request's own method, except
    /// that `GET` (the default of a URL or string) becomes `POST`. The response is handled like
    /// any ``DataRequest``. `Expect: 100-continue` is not sent unless you add that header: the
    /// body goes out right after the headers.
    public func upload(
        _ body: UploadBody, to convertible: any URLRequestConvertible,
        method: HTTPMethod? = nil
    ) -> DataRequest {
        let built = build(convertible).flatMap { request -> Result<HTTPRequest, CourierError> in
            var request = request
            if let method {
                request.method = method
            } else if request.method == .get {
                request.method = .post
            }
            do throws(CourierError) {
                try body.apply(to: &request)
            } catch {
                return .failure(error)
            }
            return .success(request)
        }
        return DataRequest(session: self, target: convertible, request: built, destination: nil)
    }

    /// Builds the request of a router once, at the edge, with the session's default headers.
    func build<R: Router>(router: R) -> Result<HTTPRequest, CourierError> {
        if let error = defaultHeadersError { return .failure(error) }
        do throws(CourierError) {
            return .success(prepared(try router.makeRequest()))
        } catch {
            return .failure(error)
        }
    }

    /// Builds the request of `convertible` once, at the edge: a ``Router`` directly, anything else
    /// through its `URLRequest`, validated; with the session's default headers. Any thrown error
    /// becomes a ``CourierError``.
    func build(_ convertible: any URLRequestConvertible) -> Result<HTTPRequest, CourierError> {
        // `.url(…)` and `.urlRequest(…)` first: a cast to a concrete type is a comparison, the cast
        // to `any Router` a search of the conformances (about 1,300 instructions).
        if !(convertible is AdHocRequest), let router = convertible as? any Router { return build(router: router) }
        if let error = defaultHeadersError { return .failure(error) }
        do throws(CourierError) {
            let urlRequest: URLRequest
            do {
                urlRequest = try convertible.asURLRequest()
            } catch let error as CourierError {
                throw error
            } catch {
                throw .invalidRequest(reason: String(describing: error))
            }
            return .success(prepared(try HTTPRequest(urlRequest)))
        } catch {
            return .failure(error)
        }
    }
}
