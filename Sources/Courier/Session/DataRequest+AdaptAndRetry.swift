import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The driver's steps that wait for code of yours (DataRequest+Driver.swift runs them): the
/// adapters and plugins' `prepare` before an attempt, and the retry decision after one (the
/// interceptors, then the session's ``RetryPolicy``).
extension DataRequest {
    /// Runs the adapters, then plugins' `prepare`, on the request as built.
    func adapt(attempt: Int) async -> RequestStateMachine.Action {
        let (extensions, context) = state.withLock { state in
            state.withRun { run in
                run.context?.attempt = attempt
                return (run.extensions, run.context)
            }
        }
        guard case .success(let base) = built, let context else { return handle(.adaptationFailed) }
        do throws(CourierError) {
            let (request, sent) = try await extensions.prepare(base, context: context)
            state.withLock { state in
                state.withRun { run in
                    run.request = request
                    run.sent = sent
                }
            }
            return handle(.adapted)
        } catch {
            state.withLock { $0.record(Outcome(request: base, failure: error)) }
            return handle(.adaptationFailed)
        }
    }

    /// Asks the interceptors, then the retry policy, whether to retry the attempt.
    func decide(attempt: Int) async -> RequestStateMachine.Action {
        let (extensions, context, sent, outcome) = state.withLock { state in
            let outcome = settled(state)
            return state.withRun { ($0.extensions, $0.context, $0.sent, outcome) }
        }
        guard let context, let sent else { return handle(.retryDecided(retryAfter: policyDelay(attempt: attempt))) }
        let delay: Double?
        switch await extensions.retryDecision(for: sent, dueTo: outcome, context: context) {
        case .doNotRetry:
            delay = nil
        case .fail(let error):
            var failed = outcome
            failed.fail(error)
            state.withLock { $0.record(failed) }
            delay = nil
        case .retry(let after):
            delay = after
        }
        return handle(.retryDecided(retryAfter: interruption == nil ? delay : nil))
    }

    /// The session's ``RetryPolicy`` on the attempt's outcome (a pure function): the wait before
    /// the next attempt, or nil (always after a shutdown or `cancelAll()`).
    func policyDelay(attempt: Int) -> Double? {
        guard interruption == nil else { return nil }
        let now = session.configuration.clock.now
        return state.withLock { state in
            let outcome = settled(state)
            return state.withRun { run in
                run.extensions.retryPolicy.retryDelay(
                    afterAttempt: attempt, method: run.request.method.rawValue,
                    statusCode: outcome.error == nil ? outcome.statusCode : nil, error: outcome.error,
                    retryAfter: outcome.responseHead?.value(forHeader: "Retry-After"), now: now)
            }
        }
    }
}
