import Courier

/// The music home example: loads banners and three song lists with async/await, in parallel,
/// with every request logged by the service's ``NetworkLogger`` plugin.
public enum MusicHomeScenario {
    /// What the run observed.
    public struct Outcome: Sendable {
        /// The number of banners loaded.
        public var bannerCount = 0
        /// The popular songs.
        public var popular: [Song] = []
        /// The latest songs.
        public var latest: [Song] = []
        /// The songs for user 1.
        public var personalized: [Song] = []
        /// The failure for an unknown user (flagged `isSuccess: false` by the server).
        public var unknownUser: ServiceFailure?
        /// The lines the service's network logger wrote.
        public var networkLog: [String] = []
        /// The readable output.
        public var transcript: Transcript
        /// Whether every list loaded and the unknown user was reported.
        public var succeeded: Bool {
            bannerCount > 0 && !popular.isEmpty && !latest.isEmpty && !personalized.isEmpty && unknownUser != nil
        }
    }

    /// Runs the scenario against the demo API at `baseURL`.
    public static func run(baseURL: String, echo: Bool = true) async -> Outcome {
        let log = LogLines()
        var outcome = await DemoAPI.$baseURL.withValue(baseURL) {
            await DemoLog.$write.withValue({ line in
                log.append(line)
                if echo { print(line) }
            }) {
                await run(echo: echo)
            }
        }
        outcome.networkLog = log.lines
        return outcome
    }

    private static func run(echo: Bool) async -> Outcome {
        var outcome = Outcome(transcript: Transcript(echo: echo))
        outcome.transcript.log("== Music home: {isSuccess, code, message, result} with string codes, async/await ==")
        let service = MixUpService.shared

        async let banners = service.banners()
        async let popular = capture { () async throws(ServiceError) -> [Song] in try await service.popularSongs() }
        async let latest = capture { () async throws(ServiceError) -> [Song] in try await service.latestSongs() }
        async let mine = service.personalized(userId: 1)

        if case .success(let list) = await banners { outcome.bannerCount = list.count }
        outcome.transcript.log("banners: \(outcome.bannerCount)")
        switch await popular {
        case .success(let songs): outcome.popular = songs
        case .failure(let error): outcome.transcript.log("popular failed: \(error)")
        }
        switch await latest {
        case .success(let songs): outcome.latest = songs
        case .failure(let error): outcome.transcript.log("latest failed: \(error)")
        }
        outcome.personalized = await mine.value ?? []
        for (title, songs) in [
            ("popular", outcome.popular), ("latest", outcome.latest), ("for you", outcome.personalized)
        ] {
            outcome.transcript.log("\(title): " + songs.map { "\($0.title) – \($0.artist)" }.joined(separator: ", "))
        }

        switch await service.personalized(userId: 999) {
        case .requestErr(let failure):
            outcome.unknownUser = failure
            outcome.transcript.log("user 999: code \(failure.appCode ?? "-"), \(failure.message ?? "")")
        case let other:
            outcome.transcript.log("user 999: unexpected \(other)")
        }
        return outcome
    }

    /// Turns a throwing call into a `Result`, so parallel `async let` calls can all be awaited.
    private static func capture<T: Sendable>(
        _ body: @Sendable () async throws(ServiceError) -> T
    ) async -> Result<T, ServiceError> {
        do throws(ServiceError) {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }
}
