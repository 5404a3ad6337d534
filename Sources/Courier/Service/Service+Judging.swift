import Foundation

/// The steps from a finished request to a ``NetworkResult``, shared by every ``Service`` (and so
/// by ``BaseService``).
extension Service {
    /// Maps a finished request to a ``NetworkResult``. A transport failure (or no HTTP response)
    /// is ``NetworkResult/networkFail(_:)``. A response goes to
    /// ``judgeStatus(by:_:type:decodingMode:)``, also when `validate()` rejected its status, so
    /// a validated 404 is still ``NetworkResult/requestErr(_:)`` with its message and body. A
    /// 2xx that `validate()` rejected is ``NetworkResult/serverErr(_:)`` (a status the client
    /// cannot use), or ``NetworkResult/pathErr(_:)`` when its content type was rejected.
    public func judge<T: Decodable & Sendable>(
        _ response: DataResponse<Data?>, as type: T.Type = T.self, decodingMode: DecodingMode = .payload
    ) -> NetworkResult<T> {
        let body = response.data ?? Data()
        guard let statusCode = response.statusCode else {
            let error = response.error ?? .protocolViolation(message: "no HTTP response")
            return .networkFail(ServiceFailure(body: body, error: error))
        }
        switch response.error {
        case nil:
            return judgeStatus(by: statusCode, body, type: type, decodingMode: decodingMode)
        case let rejection? where rejection.isValidationRejection:
            guard (200..<300).contains(statusCode) else {
                return judgeStatus(by: statusCode, body, type: type, decodingMode: decodingMode)
            }
            var context = failure(statusCode: statusCode, body)
            context.error = rejection
            if rejection == .unacceptableContentType { return .pathErr(context) }
            return .serverErr(context)
        case let error?:
            return .networkFail(ServiceFailure(statusCode: statusCode, body: body, error: error))
        }
    }

    /// Like ``judge(_:as:decodingMode:)``, keeping the status and headers with the value.
    package func judgeReply<T: Decodable & Sendable>(
        _ response: DataResponse<Data?>, as type: T.Type = T.self, decodingMode: DecodingMode = .payload
    ) -> NetworkResult<ServiceReply<T>> {
        let statusCode = response.statusCode ?? 0
        let headers = response.headers
        return judge(response, as: type, decodingMode: decodingMode).map {
            ServiceReply(value: $0, statusCode: statusCode, headers: headers)
        }
    }

    /// Decodes a successful body with the service's envelope: ``NetworkResult/success(_:)``,
    /// ``NetworkResult/pathErr(_:)`` or, for a false success flag, ``NetworkResult/requestErr(_:)``.
    package func decodeBody<T: Decodable & Sendable>(
        statusCode: Int, _ data: Data, type: T.Type, decodingMode: DecodingMode = .payload
    ) -> NetworkResult<T> {
        switch reader.value(of: type, from: data, mode: decodingMode) {
        case .success(let value):
            return .success(value)
        case .failure(.flaggedFailure(let message, let appCode)):
            return .requestErr(ServiceFailure(statusCode: statusCode, message: message, appCode: appCode, body: data))
        case .failure(.undecodable(let error, let message, let appCode)):
            return .pathErr(
                ServiceFailure(
                    statusCode: statusCode, message: message, appCode: appCode, body: data,
                    error: error))
        }
    }

    /// The failure context for an error response: status, raw body, and the server's message and
    /// application code when the body has them.
    package func failure(statusCode: Int, _ data: Data) -> ServiceFailure {
        let details = reader.failureDetails(in: data)
        return ServiceFailure(statusCode: statusCode, message: details.message, appCode: details.appCode, body: data)
    }

    /// Reads bodies with this service's envelope and decoder (the dynamic type's envelope, so a
    /// ``BaseService`` subclass's override counts).
    private var reader: EnvelopeReader {
        EnvelopeReader(format: type(of: self).envelope, decoder: decoder)
    }
}

extension CourierError {
    /// Whether `validate()` produced this error (a rejected status or content type), as opposed
    /// to the transport.
    var isValidationRejection: Bool {
        switch self {
        case .unacceptableStatusCode, .unacceptableContentType: return true
        default: return false
        }
    }
}
