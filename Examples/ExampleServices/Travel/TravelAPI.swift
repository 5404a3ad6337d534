import Courier

/// The filter a trip search posts as its JSON body.
public struct TripFilter: Codable, Sendable, Equatable {
    /// The destination city.
    public var city: String
    /// How many adults travel.
    public var adults: Int
    /// The highest acceptable price per person.
    public var maxPrice: Double

    /// Creates a filter.
    public init(city: String, adults: Int, maxPrice: Double) {
        self.city = city
        self.adults = adults
        self.maxPrice = maxPrice
    }
}

/// The travel endpoints.
public enum TravelAPI: DemoRouter {
    /// `POST /travel/trips/search?page=…&size=…` with the ``TripFilter`` as the JSON body.
    case search(page: Int, size: Int, filter: TripFilter)

    /// The endpoint path.
    public var path: String { "/travel/trips/search" }

    /// `POST`.
    public var method: HTTPMethod { .post }

    /// Paging in the query, the filter in the body.
    public var parameters: RequestParams {
        switch self {
        case let .search(page, size, filter): return .queryJSONEncodable(["page": page, "size": size], filter)
        }
    }
}
