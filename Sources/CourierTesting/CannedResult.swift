import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a canned response (a stub, a fixture) into a transport result the way the engine would:
/// the response size limit applies, and a download's body goes to its destination file.
enum CannedResult {
    static func make(
        for request: HTTPRequest, options: TransferOptions, statusCode: Int, headers: HTTPHeaders,
        body: Data, httpVersion: String = "HTTP/1.1"
    ) -> TransportResult {
        if let limit = options.bodyLimit, body.count > limit {
            var tooLarge = TransportResult(
                request: request, statusCode: statusCode, headers: headers,
                httpVersion: httpVersion)
            tooLarge.error = .responseTooLarge(limit: limit)
            return tooLarge
        }
        var delivered = body
        if let destination = options.destination {
            do {
                try body.write(to: destination)
                delivered = Data()
            } catch {
                return TransportResult(
                    request: request,
                    error: .invalidRequest(reason: "cannot write download destination: \(error)"))
            }
        }
        let metrics = TransferMetrics(
            bytesReceived: Int64(body.count),
            httpVersion: HTTPVersion(rawValue: httpVersion))
        return TransportResult(
            request: request, statusCode: statusCode, headers: headers, body: delivered,
            httpVersion: httpVersion, metrics: metrics)
    }
}
