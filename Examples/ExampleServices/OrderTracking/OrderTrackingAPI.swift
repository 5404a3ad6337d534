import Courier

/// The order-tracking feed: a `text/event-stream` of status changes.
public enum OrderTrackingAPI: DemoRouter {
    /// `GET /orders/{id}/events`.
    case events(orderID: Int)

    /// The endpoint path.
    public var path: String {
        switch self {
        case .events(let orderID): return "/orders/\(orderID)/events"
        }
    }

    /// Always `GET`.
    public var method: HTTPMethod { .get }
}

/// One `status` event's data.
public struct OrderStep: Decodable, Sendable, Equatable {
    /// 1 for the first step.
    public let step: Int
    /// For example `shipped`.
    public let status: String
}
