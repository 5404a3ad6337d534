import Courier

/// The travel example: a search POST with paging in the query and the filter in the body.
public enum TravelScenario {
    /// What the run observed.
    public struct Outcome: Sendable {
        /// The first page of results.
        public var firstPage: TripPage?
        /// The message of the whole envelope of the second page.
        public var envelopeMessage: String?
        /// The second page of results, read from the whole envelope.
        public var secondPage: TripPage?
        /// The server's message for an invalid filter (0 adults).
        public var invalidFilterMessage: String?
        /// The readable output.
        public var transcript: Transcript
        /// Whether both pages loaded and the invalid filter was rejected with a message.
        public var succeeded: Bool {
            firstPage?.trips.isEmpty == false && secondPage != nil && invalidFilterMessage != nil
        }
    }

    /// Runs the scenario against the demo API at `baseURL`.
    public static func run(baseURL: String, echo: Bool = true) async -> Outcome {
        await DemoAPI.$baseURL.withValue(baseURL) { await run(echo: echo) }
    }

    private static func run(echo: Bool) async -> Outcome {
        var outcome = Outcome(transcript: Transcript(echo: echo))
        outcome.transcript.log("== Travel: query + JSON body POST, {status, data?, success, message?} ==")
        let service = TravelService.shared
        let filter = TripFilter(city: "Lisbon", adults: 2, maxPrice: 900)

        switch await service.search(page: 1, size: 2, filter: filter) {
        case .success(let page):
            outcome.firstPage = page
            outcome.transcript.log("page \(page.page), \(page.trips.count) of \(page.total) trips:")
            for trip in page.trips {
                outcome.transcript.log("  #\(trip.id) \(trip.hotel), \(trip.city): €\(Int(trip.price))")
            }
        case let other:
            outcome.transcript.log("search failed: \(other)")
        }

        switch await service.searchEnvelope(page: 2, size: 2, filter: filter) {
        case .success(let envelope):
            outcome.envelopeMessage = envelope.message
            outcome.secondPage = envelope.data
            outcome.transcript.log(
                "page 2 envelope: status \(envelope.status ?? 0), message \(envelope.message ?? "-"), "
                    + "\(envelope.data?.trips.count ?? 0) trips")
        case let other:
            outcome.transcript.log("page 2 failed: \(other)")
        }

        let invalid = TripFilter(city: "Lisbon", adults: 0, maxPrice: 900)
        switch await service.search(page: 1, size: 2, filter: invalid) {
        case .requestErr(let failure):
            outcome.invalidFilterMessage = failure.message
            outcome.transcript.log("0 adults → \(failure.statusCode ?? 0): \(failure.message ?? "rejected")")
        case let other:
            outcome.transcript.log("0 adults: unexpected \(other)")
        }
        return outcome
    }
}
