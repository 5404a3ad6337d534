import Courier

/// Trip search against the travel API.
public final class TravelService: Service {
    /// The one instance the app uses.
    public static let shared = TravelService()

    private init() {}

    /// Every response of this service is a ``TravelResponse`` (`StatusEnvelope.Body`).
    public static var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }

    /// One page of trips matching `filter`; an invalid filter is `requestErr` with the server's message.
    public func search(page: Int, size: Int, filter: TripFilter) async -> NetworkResult<TripPage> {
        await request(TravelAPI.search(page: page, size: size, filter: filter))
    }

    /// The whole `TravelResponse` of a search, for screens that show the server's message too.
    public func searchEnvelope(
        page: Int, size: Int, filter: TripFilter
    ) async -> NetworkResult<TravelResponse<TripPage>> {
        await request(TravelAPI.search(page: page, size: size, filter: filter), decodingMode: .envelope)
    }
}
