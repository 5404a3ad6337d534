import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A DTO used across the service tests.
struct Item: Codable, Sendable, Equatable {
    let id: Int
    let title: String
}

/// A service per envelope shape; the session is injected, so no singleton is needed here.
final class PlainService: BaseService, @unchecked Sendable {}

final class StatusService: BaseService, @unchecked Sendable {
    override class var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }
}

final class ResultService: BaseService, @unchecked Sendable {
    override class var envelope: any EnvelopeFormat.Type { ResultEnvelope.self }
}

final class SuccessErrorService: BaseService, @unchecked Sendable {
    override class var envelope: any EnvelopeFormat.Type { SuccessErrorEnvelope.self }
}

/// An API that answers 404 for "nothing there": mapped to an empty list instead of `requestErr`.
final class LenientSearchService: BaseService, @unchecked Sendable {
    override class var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }

    override func judgeStatus<T: Decodable & Sendable>(
        by statusCode: Int, _ data: Data, type: T.Type, decodingMode: DecodingMode
    ) -> NetworkResult<T> {
        if statusCode == 404, let none = [Item]() as? T { return .success(none) }
        return super.judgeStatus(by: statusCode, data, type: type, decodingMode: decodingMode)
    }
}

/// The five outcome kinds, for table tests.
enum Kind: String, Equatable {
    case success, requestErr, pathErr, serverErr, networkFail
}

extension NetworkResult {
    var kind: Kind {
        switch self {
        case .success: return .success
        case .requestErr: return .requestErr
        case .pathErr: return .pathErr
        case .serverErr: return .serverErr
        case .networkFail: return .networkFail
        }
    }
}

/// Bytes of a JSON text.
func json(_ text: String) -> Data { Data(text.utf8) }

/// A `DataResponse` as a request would deliver it, for judging without a network.
func makeResponse(
    status: Int?, body: String = "", error: CourierError? = nil,
    headers: [String: String] = ["Content-Type": "application/json"]
) -> DataResponse<Data?> {
    let url = URL(string: "http://127.0.0.1/test") ?? URL(fileURLWithPath: "/")
    let head = status.map { HTTPResponseHead(url: url, statusCode: $0, headers: HTTPHeaders(headers)) }
    let data = body.isEmpty ? nil : Data(body.utf8)
    let result: Result<Data?, CourierError> = error.map { .failure($0) } ?? .success(data)
    return DataResponse(request: try? HTTPRequest(url: url), head: head, data: data, metrics: nil, result: result)
}
