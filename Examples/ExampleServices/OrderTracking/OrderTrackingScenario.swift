import Courier

/// The order-tracking example: follows a server-sent event feed to its end, across a
/// reconnection (the server closes after three steps; `Last-Event-ID` resumes the feed).
public enum OrderTrackingScenario {
    /// What the run observed.
    public struct Outcome: Sendable {
        /// The steps received, in order.
        public var steps: [OrderStep] = []
        /// The error that ended the feed, if any.
        public var error: CourierError?
        /// The readable output.
        public var transcript: Transcript
        /// Whether all six steps arrived once each, in order, ending with `delivered`.
        public var succeeded: Bool {
            error == nil && steps.map(\.step) == Array(1...6) && steps.last?.status == "delivered"
        }
    }

    /// Runs the scenario against the demo API at `baseURL`.
    public static func run(baseURL: String, echo: Bool = true) async -> Outcome {
        await DemoAPI.$baseURL.withValue(baseURL) { await run(echo: echo) }
    }

    private static func run(echo: Bool) async -> Outcome {
        var outcome = Outcome(transcript: Transcript(echo: echo))
        outcome.transcript.log("== Order tracking: server-sent events with reconnection ==")
        let feed = Session.default.eventStream(OrderTrackingAPI.events(orderID: 42))
        do throws(CourierError) {
            for try await event in feed where event.event == "status" {
                let step = try event.decode(OrderStep.self)
                outcome.steps.append(step)
                outcome.transcript.log("event #\(event.id): \(step.status)")
            }
            outcome.transcript.log("the server said the feed is complete (204)")
        } catch {
            outcome.error = error
            outcome.transcript.log("feed failed: \(error)")
        }
        return outcome
    }
}
