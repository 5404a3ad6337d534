import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Completion-handler and async accessors for a request's response.
///
/// Handlers run on `queue`, or on the session's ``Session/Configuration/callbackQueue`` (a global
/// queue, never `.main`) when `queue` is nil. Serialization (such as JSON decoding) runs there too,
/// never on the engine thread.
extension DataRequest {
    // MARK: Completion handlers

    /// Delivers the raw response: `Data?` is nil when no body arrived.
    @discardableResult
    public func response(
        queue: DispatchQueue? = nil,
        completionHandler: @escaping @Sendable (DataResponse<Data?>) -> Void
    ) -> Self {
        whenComplete(on: queue) { completionHandler(Self.makeResponse($0, serializer: DataRequest.optionalData)) }
        return self
    }

    /// Delivers the body as `Data` (empty when there was none).
    @discardableResult
    public func responseData(
        queue: DispatchQueue? = nil,
        completionHandler: @escaping @Sendable (DataResponse<Data>) -> Void
    ) -> Self {
        whenComplete(on: queue) { completionHandler(Self.makeResponse($0, serializer: DataRequest.data)) }
        return self
    }

    /// Delivers the body as text, decoded with `encoding`, else the response's charset, else UTF-8.
    @discardableResult
    public func responseString(
        queue: DispatchQueue? = nil, encoding: String.Encoding? = nil,
        completionHandler: @escaping @Sendable (DataResponse<String>) -> Void
    ) -> Self {
        whenComplete(on: queue) { outcome in
            completionHandler(Self.makeResponse(outcome) { Self.string($0, encoding: encoding) })
        }
        return self
    }

    /// Delivers the body decoded as `type` with `decoder`, or the session's
    /// ``Session/Configuration/decoder`` (``CourierJSONDecoder`` unless configured otherwise).
    /// An empty body decodes only into ``Empty``.
    @discardableResult
    public func responseDecodable<T: Decodable & Sendable>(
        of type: T.Type = T.self, queue: DispatchQueue? = nil, decoder: (any DataDecoder)? = nil,
        completionHandler: @escaping @Sendable (DataResponse<T>) -> Void
    ) -> Self {
        let decoder = decoder ?? session.configuration.decoder
        whenComplete(on: queue) { outcome in
            completionHandler(Self.makeResponse(outcome) { Self.decode(type, from: $0, decoder: decoder) })
        }
        return self
    }

    // MARK: async/await

    /// Waits for the raw response. Never throws: failures are in `result`. Cancelling the
    /// awaiting task cancels the request.
    public func response() async -> DataResponse<Data?> {
        DataRequest.makeResponse(await outcome(), serializer: DataRequest.optionalData)
    }

    /// Waits for the response with its body decoded as `type` (with `decoder`, or the session's
    /// ``Session/Configuration/decoder``); failures are in `result`.
    public func decodableResponse<T: Decodable & Sendable>(
        of type: T.Type = T.self, decoder: (any DataDecoder)? = nil
    ) async -> DataResponse<T> {
        let decoder = decoder ?? session.configuration.decoder
        return DataRequest.makeResponse(await outcome(), serializer: { Self.decode(type, from: $0, decoder: decoder) })
    }

    /// The body bytes; throws a ``CourierError``.
    public func data() async throws(CourierError) -> Data {
        try await readOutcome { DataRequest.value(of: $0, serializer: DataRequest.data) }.get()
    }

    /// The body as text; throws a ``CourierError``.
    public func string(encoding: String.Encoding? = nil) async throws(CourierError) -> String {
        try DataRequest.value(of: await outcome(), serializer: { Self.string($0, encoding: encoding) }).get()
    }

    /// The body decoded as `type` (with `decoder`, or the session's
    /// ``Session/Configuration/decoder``); throws a ``CourierError``.
    public func decodable<T: Decodable & Sendable>(
        _ type: T.Type = T.self, decoder: (any DataDecoder)? = nil
    ) async throws(CourierError) -> T {
        let decoder = decoder ?? session.configuration.decoder
        // The body is read under the lock; it is decoded after.
        let body = await readOutcome { DataRequest.value(of: $0, serializer: DataRequest.data) }
        return try body.flatMap { Self.decode(type, from: $0, decoder: decoder) }.get()
    }

    // MARK: Serializers

    static func optionalData(_ outcome: Outcome) -> Result<Data?, CourierError> {
        .success(outcome.body.isEmpty ? nil : outcome.body)
    }

    static func data(_ outcome: Outcome) -> Result<Data, CourierError> {
        .success(outcome.body)
    }

    static func string(_ outcome: Outcome, encoding: String.Encoding?) -> Result<String, CourierError> {
        let chosen = encoding ?? charset(of: outcome.responseHead) ?? .utf8
        guard let text = String(data: outcome.body, encoding: chosen) else { return .failure(.stringDecodingFailed) }
        return .success(text)
    }

    static func decode<T: Decodable>(
        _ type: T.Type, from outcome: Outcome, decoder: any DataDecoder
    ) -> Result<T, CourierError> {
        decode(type, from: outcome.body, decoder: decoder)
    }

    /// `body` (an outcome's ``DataResponse/body``) decoded as `type`; an empty body is
    /// ``Empty`` or a decoding failure.
    static func decode<T: Decodable>(
        _ type: T.Type, from body: Data, decoder: any DataDecoder
    ) -> Result<T, CourierError> {
        if body.isEmpty {
            if let empty = Empty() as? T { return .success(empty) }
            return .failure(.decodingFailed(path: "", reason: "the response body is empty"))
        }
        do {
            return .success(try decoder.decode(T.self, from: body))
        } catch {
            return .failure(.decoding(error))
        }
    }

    private static func charset(of head: ResponseHead?) -> String.Encoding? {
        guard let contentType = head?.value(forHeader: "Content-Type")?.lowercased(),
            let range = contentType.range(of: "charset=")
        else { return nil }
        let name =
            contentType[range.upperBound...].split(separator: ";").first?
            .trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) ?? ""
        switch name {
        case "utf-8", "utf8": return .utf8
        case "iso-8859-1", "latin1": return .isoLatin1
        case "us-ascii", "ascii": return .ascii
        case "utf-16": return .utf16
        default: return nil
        }
    }
}
