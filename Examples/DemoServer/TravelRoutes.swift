import CourierTestServer

/// `POST /travel/trips/search?page=&size=`, answering `{status, data?, success, message?}`.
enum TravelRoutes {
    private struct Filter: Decodable { let city: String; let adults: Int; let maxPrice: Double }
    private struct Trip: Encodable { let id: Int; let city: String; let hotel: String; let price: Double }
    private struct Page: Encodable { let page: Int; let total: Int; let trips: [Trip] }

    private static let trips = [
        Trip(id: 11, city: "Lisbon", hotel: "Casa do Mar", price: 420),
        Trip(id: 12, city: "Lisbon", hotel: "Alfama Loft", price: 610),
        Trip(id: 13, city: "Lisbon", hotel: "Belém Suites", price: 880),
        Trip(id: 14, city: "Lisbon", hotel: "Palácio Real", price: 1500),
        Trip(id: 21, city: "Porto", hotel: "Ribeira Inn", price: 390)
    ]

    static func register(on server: TestHTTPServer) {
        server.route("POST", "/travel/trips/search") { request in
            guard let filter = Wire.body(Filter.self, of: request) else {
                return Wire.statusFailure(400, "the body must be a filter")
            }
            guard filter.adults > 0 else {
                return Wire.statusFailure(400, "at least one adult must travel")
            }
            let page = max(1, request.query["page"].flatMap(Int.init) ?? 1)
            let size = max(1, request.query["size"].flatMap(Int.init) ?? 10)
            let matches = trips.filter { $0.city == filter.city && $0.price <= filter.maxPrice }
            let slice = Array(matches.dropFirst((page - 1) * size).prefix(size))
            let message = slice.isEmpty ? "no more trips" : nil
            let body = Wire.StatusBody(
                status: 200, success: true, message: message,
                data: Page(page: page, total: matches.count, trips: slice))
            return .json(body)
        }
    }
}
