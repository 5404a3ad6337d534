import Courier

/// The login-with-status example: the same call takes a different path for 200 and 201.
public enum LoginStatusScenario {
    /// Which screen the app would show after a login.
    public enum Destination: String, Sendable, Equatable {
        /// 201: a new account, go to onboarding.
        case onboarding
        /// 200: a returning user, go home.
        case home
        /// Anything else.
        case error
    }

    /// What the run observed.
    public struct Outcome: Sendable {
        /// The destination of each login, in order (new email, then the same email again).
        public var destinations: [Destination] = []
        /// The failure for a login with an invalid email (400, app code `INVALID_EMAIL`).
        public var invalidEmail: ServiceFailure?
        /// The readable output.
        public var transcript: Transcript
        /// Whether the first login onboarded, the second went home, and the invalid email was
        /// refused with its app code.
        public var succeeded: Bool {
            destinations == [.onboarding, .home] && invalidEmail?.appCode == "INVALID_EMAIL"
        }
    }

    /// Runs the scenario against the demo API at `baseURL`.
    public static func run(baseURL: String, echo: Bool = true) async -> Outcome {
        await DemoAPI.$baseURL.withValue(baseURL) { await run(echo: echo) }
    }

    private static func run(echo: Bool) async -> Outcome {
        var outcome = Outcome(transcript: Transcript(echo: echo))
        outcome.transcript.log("== Login with status: 201 → onboarding, 200 → home, error codes ==")
        let email = "grace-\(UInt32.random(in: 0...UInt32.max))@example.com"
        for attempt in 1...2 {
            let destination: Destination
            switch await LoginService.shared.signIn(provider: "kakao", email: email) {
            case .success(let reply) where reply.statusCode == 201:
                destination = .onboarding
                outcome.transcript.log(
                    "login \(attempt): 201 Created → onboarding for \(reply.value.nickname) (#\(reply.value.userId))")
            case .success(let reply):
                destination = .home
                outcome.transcript.log(
                    "login \(attempt): \(reply.statusCode) OK → welcome back, \(reply.value.nickname)")
            case .requestErr(let failure), .pathErr(let failure), .serverErr(let failure), .networkFail(let failure):
                destination = .error
                outcome.transcript.log("login \(attempt) failed: \(failure)")
            }
            outcome.destinations.append(destination)
        }

        switch await LoginService.shared.signIn(provider: "kakao", email: "not-an-email") {
        case .requestErr(let failure):
            outcome.invalidEmail = failure
            outcome.transcript.log(
                "invalid email → \(failure.statusCode ?? 0) \(failure.appCode ?? "-"): \(failure.message ?? "")")
        case let other:
            outcome.transcript.log("invalid email: unexpected \(other)")
        }
        return outcome
    }
}
