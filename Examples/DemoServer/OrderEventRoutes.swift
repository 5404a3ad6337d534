import CourierTestServer
import Foundation

/// `GET /orders/{id}/events`: a live order-tracking feed as server-sent events (`event: status`,
/// JSON data, an `id` per step). The first connection sends three steps and closes, as servers
/// and proxies do; a reconnection with `Last-Event-ID` gets the rest; once every step was sent
/// the answer is 204 No Content, which tells the client to stop.
enum OrderEventRoutes {
    static let steps = ["received", "confirmed", "packed", "shipped", "out for delivery", "delivered"]

    private struct Step: Encodable { let step: Int; let status: String }

    static func register(on server: TestHTTPServer) {
        server.route("GET", "/orders/42/events") { request in
            let after = request.header("Last-Event-ID").flatMap(Int.init) ?? 0
            guard after < steps.count else { return TestHTTPResponse(status: 204) }
            let last = after == 0 ? 3 : steps.count
            var parts: [String] = after == 0 ? ["retry: 100\n\n", ": connected\n\n"] : []
            for index in (after + 1)...last {
                let json = String(
                    decoding: (try? JSONEncoder().encode(Step(step: index, status: steps[index - 1]))) ?? Data(),
                    as: UTF8.self)
                parts.append("id: \(index)\nevent: status\ndata: \(json)\n\n")
            }
            return TestHTTPResponse(
                status: 200, headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"],
                body: Data(parts.joined().utf8)
            )
            .with(.paced(parts: parts.map(\.utf8.count), intervalMs: 150))
        }
    }
}
