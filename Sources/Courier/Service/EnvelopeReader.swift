import Foundation

/// Turns a 2xx body into the requested value according to an ``EnvelopeFormat`` and a
/// ``DecodingMode``, and reads the server's message out of error bodies. Pure: no I/O.
struct EnvelopeReader {
    let format: any EnvelopeFormat.Type
    let decoder: any DataDecoder

    /// Why a body did not produce a value.
    enum Rejection: Error {
        /// The body is fine but the server's success flag is false.
        case flaggedFailure(message: String?, appCode: String?)
        /// The body does not hold the promised value.
        case undecodable(CourierError, message: String?, appCode: String?)
    }

    /// The value the body holds, or why not.
    func value<T: Decodable>(of type: T.Type, from data: Data, mode: DecodingMode) -> Result<T, Rejection> {
        if data.isEmpty, mode != .body {
            if let empty = Empty() as? T { return .success(empty) }
            return .failure(
                .undecodable(
                    .decodingFailed(path: "", reason: "the response body is empty"),
                    message: nil, appCode: nil))
        }
        switch mode {
        case .envelope:
            return decodeWhole(type, from: data)
        case .message:
            return message(as: type, from: data)
        case .body:
            return body(as: type, from: data)
        case .payload:
            if let empty = Empty() as? T {
                // Without an envelope any body is acceptable when no value was asked for.
                if ObjectIdentifier(format) == ObjectIdentifier(NoEnvelope.self) { return .success(empty) }
                return open(data, as: DiscardedPayload.self).flatMap { _ in .success(empty) }
            }
            return open(data, as: T.self).flatMap { opened in
                guard let payload = opened.payload else {
                    let key = opened.payloadKey ?? ""
                    return .failure(
                        .undecodable(
                            .decodingFailed(path: key, reason: "missing or null payload '\(key)'"),
                            message: opened.message, appCode: opened.appCode))
                }
                return .success(payload)
            }
        }
    }

    /// The message and code of an error body: from the envelope when it decodes, else from a
    /// top-level `message`, `error`, `msg` or `detail` text field.
    func failureDetails(in data: Data) -> (message: String?, appCode: String?) {
        guard !data.isEmpty else { return (nil, nil) }
        let opened = try? format.open(data, as: DiscardedPayload.self, decoder: decoder)
        if let message = opened?.message, let appCode = opened?.appCode { return (message, appCode) }
        // Parse the body a second time only when the envelope left something out.
        let loose = try? decoder.decode(LooseMessage.self, from: data)
        return (opened?.message ?? loose?.text, opened?.appCode ?? loose?.appCode)
    }

    private func open<P: Decodable>(_ data: Data, as payload: P.Type) -> Result<EnvelopeFields<P>, Rejection> {
        let opened: EnvelopeFields<P>
        do {
            opened = try format.open(data, as: payload, decoder: decoder)
        } catch {
            let details = failureDetails(in: data)
            return .failure(.undecodable(.decoding(error), message: details.message, appCode: details.appCode))
        }
        if opened.isSuccessFlag == false {
            return .failure(.flaggedFailure(message: opened.message, appCode: opened.appCode))
        }
        return .success(opened)
    }

    private func message<T>(as type: T.Type, from data: Data) -> Result<T, Rejection> {
        open(data, as: DiscardedPayload.self).flatMap { opened in
            guard let message = opened.message else {
                return .failure(
                    .undecodable(
                        .decodingFailed(path: "message", reason: "missing or null message"),
                        message: nil, appCode: opened.appCode))
            }
            guard let value = message as? T else {
                return .failure(
                    .undecodable(
                        .decodingFailed(path: "message", reason: "decoding mode .message yields String, not \(T.self)"),
                        message: message, appCode: opened.appCode))
            }
            return .success(value)
        }
    }

    private func body<T>(as type: T.Type, from data: Data) -> Result<T, Rejection> {
        if let bytes = data as? T { return .success(bytes) }
        if T.self == String.self {
            if let text = String(validating: data, as: UTF8.self) as? T { return .success(text) }
            return .failure(
                .undecodable(
                    .decodingFailed(path: "", reason: "the response body is not UTF-8 text"),
                    message: nil, appCode: nil))
        }
        return .failure(
            .undecodable(
                .decodingFailed(path: "", reason: "decoding mode .body yields Data or String, not \(T.self)"),
                message: nil, appCode: nil))
    }

    private func decodeWhole<T: Decodable>(_ type: T.Type, from data: Data) -> Result<T, Rejection> {
        let value: T
        do {
            value = try decoder.decode(T.self, from: data)
        } catch {
            let details = failureDetails(in: data)
            return .failure(.undecodable(.decoding(error), message: details.message, appCode: details.appCode))
        }
        if let envelope = value as? any ResponseEnvelope {
            let fields = Self.metadata(of: envelope)
            if fields.isSuccessFlag == false {
                return .failure(.flaggedFailure(message: fields.message, appCode: fields.appCode))
            }
        }
        return .success(value)
    }

    /// The flag, message and code of a decoded envelope (opens the existential).
    private static func metadata<Envelope: ResponseEnvelope>(
        of envelope: Envelope
    )
        -> (isSuccessFlag: Bool?, message: String?, appCode: String?)
    {
        let fields = envelope.envelopeFields
        return (fields.isSuccessFlag, fields.message, fields.appCode)
    }
}

/// A best-effort reader of the error text and code in bodies without a known envelope: a
/// top-level `message`, `error`, `msg` or `detail` text and `code`, or the `message` and `code`
/// of an `error` object (`{"error": {"code": "INVALID_TOKEN", "message": "…"}}`).
private struct LooseMessage: Decodable {
    let text: String?
    let appCode: String?

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let nested = try? container.nestedContainer(keyedBy: Key.self, forKey: Key(stringValue: "error"))
        var found: String?
        for name in ["message", "error", "msg", "detail"] {
            if let text = container.lenientText(forKey: Key(stringValue: name)) {
                found = text
                break
            }
        }
        text = found ?? nested?.lenientText(forKey: Key(stringValue: "message"))
        appCode =
            container.lenientText(forKey: Key(stringValue: "code"))
            ?? nested?.lenientText(forKey: Key(stringValue: "code"))
    }
}
