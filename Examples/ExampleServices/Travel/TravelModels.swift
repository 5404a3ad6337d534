import Courier

/// The travel API's response model, `{status, data?, success, message?}`, under the name the
/// team uses everywhere.
public typealias TravelResponse<T: Decodable> = StatusEnvelope.Body<T>

/// One trip offer.
public struct Trip: Codable, Sendable, Equatable {
    /// The offer's id.
    public let id: Int
    /// The destination city.
    public let city: String
    /// The hotel.
    public let hotel: String
    /// The price per person.
    public let price: Double
}

/// One page of search results.
public struct TripPage: Codable, Sendable, Equatable {
    /// The page number (1-based).
    public let page: Int
    /// The number of matching trips on all pages.
    public let total: Int
    /// The trips on this page.
    public let trips: [Trip]
}
