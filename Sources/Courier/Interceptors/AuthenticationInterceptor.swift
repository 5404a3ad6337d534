import CourierSync
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Applies a credential to the requests whose router asks for one, and refreshes it, once, when
/// it has expired or a request comes back `401 Unauthorized`.
///
/// ```swift
/// let authentication = AuthenticationInterceptor { expired in
///     // Runs once per refresh, however many requests are waiting. Use an endpoint whose
///     // router declares `authorization: .none`, so it is not intercepted itself.
///     let fresh = try await AuthService.shared.refresh(token: expired.refreshToken ?? "")
///     return AuthCredential(accessToken: fresh.accessToken, refreshToken: fresh.refreshToken,
///                           expiresAt: Date().addingTimeInterval(fresh.expiresIn))
/// }
/// var configuration = Session.Configuration()
/// configuration.interceptors = [authentication]
/// // after signing in:
/// authentication.credential = AuthCredential(accessToken: token, refreshToken: refreshToken)
/// ```
///
/// Which requests get the credential is declared per endpoint by ``Router/authorization``
/// (`.none` by default; `.bearer`, `.basic`, `.custom(header:scheme:)`, `.query(name:)` or
/// `.cookie(name:)`). Requests made from a
/// URL or a `URLRequest`, and endpoints declaring `.none`, pass through untouched: sign-in and
/// refresh endpoints are never sent with a stale token, and their 401s never trigger a refresh.
///
/// Refreshing is single-flight: however many requests hit a 401 (or find the credential
/// expired) together, the `refresh` closure runs once; requests started during the refresh wait
/// for it; all of them are then sent again with the new credential, or fail with
/// ``CourierError/credentialRefreshFailed`` if the refresh threw. A 401 for a request
/// sent with an older credential is replayed with the current one without refreshing again.
/// Refresh loops are impossible: after `maxRefreshes` refreshes within
/// `window` seconds (of the session's ``Session/Configuration/clock``), requests
/// that would need another fail with ``CourierError/tooManyCredentialRefreshes``.
/// A request with no credential set fails with ``CourierError/missingCredential`` before it is sent.
public final class AuthenticationInterceptor: RequestInterceptor {
    /// Exchanges an expired (or refused) credential for a new one.
    typealias Refresh = @Sendable (_ expired: AuthCredential) async throws -> AuthCredential

    /// How many refreshes may start within a time window.
    public struct RefreshLimit: Sendable, Equatable {
        /// The most refreshes within `window`.
        package var maxRefreshes: Int
        /// The window, in seconds.
        package var window: TimeInterval

        /// Creates a limit. Default: 3 refreshes per 60 seconds.
        public init(maxRefreshes: Int = 3, window: TimeInterval = 60) {
            self.maxRefreshes = maxRefreshes
            self.window = window
        }
    }

    private typealias Waiter = CheckedContinuation<Result<AuthCredential, CourierError>, Never>

    private let state: Locked<RefreshState<Waiter>>
    private let refresh: Refresh
    private let expiryLeeway: TimeInterval

    /// Creates the interceptor.
    /// - Parameters:
    ///   - credential: the credential to start with (nil until someone signs in).
    ///   - limit: how many refreshes may start within a time window. Default: 3 per 60 s.
    ///   - expiryLeeway: a credential expiring within this many seconds is refreshed before a
    ///     request is sent. Default: 10.
    ///   - refresh: exchanges an expired (or refused) credential for a new one; throwing fails
    ///     every waiting request.
    public init(
        credential: AuthCredential? = nil, limit: RefreshLimit = RefreshLimit(),
        expiryLeeway: TimeInterval = 10,
        refresh: @escaping @Sendable (_ expired: AuthCredential) async throws -> AuthCredential
    ) {
        state = Locked(RefreshState(credential: credential, maxRefreshes: limit.maxRefreshes, window: limit.window))
        self.refresh = refresh
        self.expiryLeeway = expiryLeeway
    }

    /// The current credential. Set it after signing in, and to nil after signing out; a refresh
    /// running at that moment then does not overwrite it, and the refreshes made for the previous
    /// credential stop counting against the ``RefreshLimit``.
    public var credential: AuthCredential? {
        get { state.withLock { $0.credential } }
        set { state.withLock { $0.set(newValue) } }
    }

    /// How many requests wait for the running refresh; tests use it to know that every request
    /// they started has reached the interceptor.
    var waitingCount: Int { state.withLock { $0.waiterCount } }

    /// Adds the credential the endpoint asks for, first waiting for (or starting) a refresh if
    /// one is running or the credential has expired.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        let kind = AuthorizationType.declared(by: context.target)
        guard kind != .none else { return request }
        let now = context.session.configuration.clock.now
        let leeway = expiryLeeway
        let credential = try await resolve { state, waiter in
            state.credentialForSending(now: now, leeway: leeway, waiter: waiter)
        }.get()
        return kind.applying(credential.accessToken, to: request)
    }

    /// On a 401 for an endpoint that needs a credential: refreshes it (once for all concurrent
    /// 401s) and sends the request again, or fails it with the refresh's error.
    public func retry(
        _ request: URLRequest, dueTo response: DataResponse<Data?>, context: RequestContext
    ) async
        -> RetryDecision
    {
        let kind = AuthorizationType.declared(by: context.target)
        guard kind != .none, response.error == nil, response.statusCode == 401 else { return .doNotRetry }
        let sent = kind.sentValue(in: request)
        let now = context.session.configuration.clock.now
        let outcome = await resolve { state, waiter in
            state.unauthorized(now: now, waiter: waiter) { current in
                kind.placedValue(of: current.accessToken) == sent
            }
        }
        switch outcome {
        case .success: return .retry(after: 0)
        case .failure(let error): return error == .missingCredential ? .doNotRetry : .fail(error)
        }
    }

    /// Runs one step of the state machine and carries out its action.
    private func resolve(
        _ step: @escaping @Sendable (inout RefreshState<Waiter>, Waiter) -> RefreshState<Waiter>.Action
    ) async -> Result<AuthCredential, CourierError> {
        await withCheckedContinuation { (waiter: Waiter) in
            switch state.withLock({ step(&$0, waiter) }) {
            case .proceed(let credential): waiter.resume(returning: .success(credential))
            case .fail(let error): waiter.resume(returning: .failure(error))
            case .deliver: waiter.resume(returning: .failure(.missingCredential))
            case .wait: break
            case .refresh(let expired):
                // Its own task: cancelling the request that started it must not stop the refresh
                // others wait for. Task-local values are inherited.
                Task { await self.runRefresh(of: expired) }
            }
        }
    }

    private func runRefresh(of expired: AuthCredential) async {
        let result: Result<AuthCredential, CourierError>
        do {
            result = .success(try await refresh(expired))
        } catch {
            result = .failure(.credentialRefreshFailed(underlying: error))
        }
        let (waiters, delivered) = state.withLock { $0.finishRefresh(result) }
        for waiter in waiters { waiter.resume(returning: delivered) }
    }
}
