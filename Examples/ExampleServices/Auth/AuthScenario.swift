import Courier

/// The auth example: sign up, sign in, read the profile with the access token, see an expired
/// token refreshed by the ``AuthenticationInterceptor`` (once, for three concurrent calls), then
/// handle an unknown user (404) and a wrong password (409).
public enum AuthScenario {
    /// What the run observed.
    public struct Outcome: Sendable {
        /// The sign-up result.
        public var signUp: NetworkResult<SignUpResult>?
        /// The successful sign-in.
        public var signIn: NetworkResult<SignIn>?
        /// The same sign-in through the completion-handler API.
        public var completionSignIn: NetworkResult<SignIn>?
        /// The profile read with the first access token.
        public var profile: NetworkResult<Profile>?
        /// The profiles read by three concurrent calls after the access token expired.
        public var profilesAfterExpiry: [NetworkResult<Profile>] = []
        /// How many refreshes the interceptor made for those three calls.
        public var refreshes = 0
        /// The server's message for the unknown email (404).
        public var unknownUserMessage: String?
        /// The server's message for the wrong password (409).
        public var wrongPasswordMessage: String?
        /// The readable output.
        public var transcript: Transcript
        /// Whether every step behaved as the demo API promises.
        public var succeeded: Bool {
            signUp?.value != nil && signIn?.value != nil && completionSignIn?.value != nil
                && profile?.value != nil && profilesAfterExpiry.count == 3
                && profilesAfterExpiry.allSatisfy { $0.value != nil } && refreshes == 1
                && unknownUserMessage != nil && wrongPasswordMessage != nil
        }
    }

    /// Runs the scenario against the demo API at `baseURL`.
    public static func run(baseURL: String, echo: Bool = true) async -> Outcome {
        await DemoAPI.$baseURL.withValue(baseURL) { await run(echo: echo) }
    }

    private static func run(echo: Bool) async -> Outcome {
        var outcome = Outcome(transcript: Transcript(echo: echo))
        outcome.transcript.log("== Auth: sign up, sign in, refresh an expired token, handle 404 and 409 ==")
        let service = AuthService.shared

        let signUp = await service.signUp(email: "ada@example.com", name: "Ada", pw: "lovelace")
        outcome.signUp = signUp
        switch signUp {
        case .success(let created): outcome.transcript.log("signed up \(created.name) as user #\(created.userId)")
        case .requestErr(let failure): outcome.transcript.log("sign-up refused: \(failure.message ?? "\(failure)")")
        case .pathErr, .serverErr, .networkFail: outcome.transcript.log("sign-up failed: \(signUp)")
        }

        let signIn = await service.signIn(email: "ada@example.com", pw: "lovelace")
        outcome.signIn = signIn
        if case .success(let session) = signIn {
            outcome.transcript.log("signed in as \(session.name), token \(session.accessToken)")
        } else {
            outcome.transcript.log("sign-in failed: \(signIn)")
        }

        // The completion-handler style, as UIKit-era callers write it; the handler runs on a
        // global queue (never .main, which has no run loop in a command-line program).
        let viaCompletion: NetworkResult<SignIn> = await withCheckedContinuation { continuation in
            service.signIn(email: "ada@example.com", pw: "lovelace") { result in
                continuation.resume(returning: result)
            }
        }
        outcome.completionSignIn = viaCompletion
        switch viaCompletion {
        case .success(let again): outcome.transcript.log("completion handler: signed in again as \(again.name)")
        case .requestErr, .pathErr, .serverErr, .networkFail:
            outcome.transcript.log("completion handler failed: \(viaCompletion)")
        }

        await readProfile(into: &outcome, service: service)

        for (email, pw) in [("nobody@example.com", "x"), ("ada@example.com", "wrong")] {
            let attempt = await service.signIn(email: email, pw: pw)
            switch attempt {
            case .requestErr(let failure) where failure.statusCode == 404:
                outcome.unknownUserMessage = failure.message
                outcome.transcript.log("404 for \(email): \(failure.message ?? "no such user") → offer sign-up")
            case .requestErr(let failure) where failure.statusCode == 409:
                outcome.wrongPasswordMessage = failure.message
                outcome.transcript.log("409 for \(email): \(failure.message ?? "wrong password") → ask again")
            case .requestErr(let failure):
                outcome.transcript.log("rejected: \(failure)")
            case .success, .pathErr, .serverErr, .networkFail:
                outcome.transcript.log("unexpected: \(attempt)")
            }
        }
        return outcome
    }

    /// Reads the profile, expires the token on the server, then reads it three times at once:
    /// the interceptor refreshes the token once and replays the three calls.
    private static func readProfile(into outcome: inout Outcome, service: AuthService) async {
        let profile = await service.profile()
        outcome.profile = profile
        switch profile {
        case .success(let me): outcome.transcript.log("profile: \(me.name) <\(me.email)>")
        case .requestErr, .pathErr, .serverErr, .networkFail: outcome.transcript.log("profile failed: \(profile)")
        }

        _ = await Session.default.request(AuthRouter.demoExpireTokens).response()
        outcome.transcript.log("(the demo server expires every access token)")
        let before = await service.renewals
        async let first = service.profile()
        async let second = service.profile()
        async let third = service.profile()
        outcome.profilesAfterExpiry = await [first, second, third]
        outcome.refreshes = await service.renewals - before
        let succeeded = outcome.profilesAfterExpiry.filter { $0.value != nil }.count
        outcome.transcript.log(
            "3 concurrent profile calls after expiry: \(succeeded) succeeded, "
                + "\(outcome.refreshes) token refresh, new token \(service.authentication.credential?.accessToken ?? "none")"
        )
    }
}
