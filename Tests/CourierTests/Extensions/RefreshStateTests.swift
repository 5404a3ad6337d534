@testable import Courier
import Foundation
import XCTest

/// The single-flight refresh decisions as a pure state machine, without sockets.
final class RefreshStateTests: XCTestCase {
    let start = Date(timeIntervalSince1970: 1_000_000)
    let old = AuthCredential(accessToken: "old", refreshToken: "r1", expiresAt: Date(timeIntervalSince1970: 1_000_100))
    let new = AuthCredential(accessToken: "new", refreshToken: "r2", expiresAt: Date(timeIntervalSince1970: 1_003_600))

    private func machine(
        _ credential: AuthCredential? = nil, max: Int = 3, window: TimeInterval = 60
    ) -> RefreshState<Int> {
        RefreshState(credential: credential ?? old, maxRefreshes: max, window: window)
    }

    private func isCurrent(_ sent: String) -> (AuthCredential) -> Bool { { $0.accessToken == sent } }

    func testAValidCredentialIsUsedAsIs() {
        var state = machine()
        guard case .proceed(let credential) = state.credentialForSending(now: start, leeway: 10, waiter: 1) else {
            return XCTFail("expected proceed")
        }
        XCTAssertEqual(credential, old)
        XCTAssertEqual(state.refreshCount, 0)
    }

    func testNoCredentialFailsTyped() {
        var state = RefreshState<Int>(credential: nil, maxRefreshes: 3, window: 60)
        guard case .fail(let error) = state.credentialForSending(now: start, leeway: 10, waiter: 1) else {
            return XCTFail("expected fail")
        }
        XCTAssertEqual(error, .missingCredential)
        guard case .deliver = state.unauthorized(now: start, waiter: 2, sentWithCurrent: isCurrent("old")) else {
            return XCTFail("a 401 without any credential is delivered as it is")
        }
    }

    func testAnExpiredCredentialIsRefreshedOnceAndLaterRequestsWait() {
        var state = machine()
        let late = start.addingTimeInterval(95)  // within the 10 s leeway of expiry
        guard case .refresh(let expired) = state.credentialForSending(now: late, leeway: 10, waiter: 1) else {
            return XCTFail("expected refresh")
        }
        XCTAssertEqual(expired, old)
        guard case .wait = state.credentialForSending(now: late, leeway: 10, waiter: 2) else {
            return XCTFail("expected wait")
        }
        guard case .wait = state.unauthorized(now: late, waiter: 3, sentWithCurrent: isCurrent("old")) else {
            return XCTFail("a 401 during the refresh waits for it")
        }
        let (woken, result) = state.finishRefresh(.success(new))
        XCTAssertEqual(woken, [1, 2, 3])
        XCTAssertEqual(try result.get(), new)
        XCTAssertEqual(state.credential, new)
        XCTAssertEqual(state.refreshCount, 1)
        XCTAssertFalse(state.isRefreshing)
    }

    func testFiftyConcurrent401sStartExactlyOneRefresh() {
        var state = machine()
        var refreshes = 0
        for waiter in 0..<50 {
            switch state.unauthorized(now: start, waiter: waiter, sentWithCurrent: isCurrent("old")) {
            case .refresh: refreshes += 1
            case .wait: break
            default: XCTFail("unexpected action for \(waiter)")
            }
        }
        XCTAssertEqual(refreshes, 1)
        XCTAssertEqual(state.finishRefresh(.success(new)).waiters.count, 50)
    }

    func testA401SentWithAnOlderCredentialIsReplayedWithoutRefreshing() {
        var state = machine()
        guard case .refresh = state.unauthorized(now: start, waiter: 1, sentWithCurrent: isCurrent("old")) else {
            return XCTFail("expected refresh")
        }
        _ = state.finishRefresh(.success(new))
        guard case .proceed(let current) = state.unauthorized(now: start, waiter: 2, sentWithCurrent: isCurrent("old"))
        else {
            return XCTFail("a late 401 for the old token is replayed with the new one")
        }
        XCTAssertEqual(current, new)
        XCTAssertEqual(state.refreshCount, 1)
    }

    func testAFailedRefreshFailsEveryWaiterAndKeepsTheCredential() {
        var state = machine()
        _ = state.unauthorized(now: start, waiter: 1, sentWithCurrent: isCurrent("old"))
        _ = state.credentialForSending(now: start, leeway: 10, waiter: 2)
        let (woken, result) = state.finishRefresh(
            .failure(.credentialRefreshFailed(underlying: TestFailure("revoked"))))
        XCTAssertEqual(woken, [1, 2])
        XCTAssertEqual(result, .failure(.credentialRefreshFailed))
        XCTAssertEqual(try? result.get(), nil)
        if case .failure(let error) = result {
            XCTAssertEqual(error.description, "Refreshing the credential failed: revoked")
        }
        XCTAssertEqual(state.credential, old)
        XCTAssertFalse(state.isRefreshing)
    }

    func testRefreshesAreBoundedPerWindow() {
        var state = machine(max: 3, window: 60)
        for index in 0..<3 {
            let now = start.addingTimeInterval(Double(index))
            guard case .refresh = state.unauthorized(now: now, waiter: index, sentWithCurrent: { _ in true }) else {
                return XCTFail("refresh \(index) should start")
            }
            _ = state.finishRefresh(.success(AuthCredential(accessToken: "t\(index)")))
        }
        guard
            case .fail(let error) = state.unauthorized(
                now: start.addingTimeInterval(5), waiter: 9,
                sentWithCurrent: { _ in true })
        else {
            return XCTFail("a fourth refresh within the window must fail")
        }
        XCTAssertSameError(error, .tooManyCredentialRefreshes(limit: 3, window: 60))
        guard
            case .refresh = state.unauthorized(
                now: start.addingTimeInterval(60), waiter: 10,
                sentWithCurrent: { _ in true })
        else {
            return XCTFail("once the first refresh left the window, one more may start")
        }
        XCTAssertEqual(state.refreshCount, 4)
    }

    func testSigningInAgainStartsANewWindow() {
        var state = machine(max: 1, window: 60)
        guard case .refresh = state.unauthorized(now: start, waiter: 1, sentWithCurrent: { _ in true }) else {
            return XCTFail("expected refresh")
        }
        _ = state.finishRefresh(.success(new))
        guard case .fail = state.unauthorized(now: start, waiter: 2, sentWithCurrent: { _ in true }) else {
            return XCTFail("the window is full")
        }
        state.set(AuthCredential(accessToken: "signed-in-again"))
        guard case .refresh = state.unauthorized(now: start, waiter: 3, sentWithCurrent: { _ in true }) else {
            return XCTFail("a new sign-in starts with an empty window")
        }
    }

    func testACredentialSetDuringARefreshWins() {
        var state = machine()
        _ = state.unauthorized(now: start, waiter: 1, sentWithCurrent: isCurrent("old"))
        let signedInAgain = AuthCredential(accessToken: "fresh-sign-in")
        state.set(signedInAgain)
        let (woken, result) = state.finishRefresh(.success(new))
        XCTAssertEqual(woken, [1])
        XCTAssertEqual(try result.get(), signedInAgain)
        XCTAssertEqual(state.credential, signedInAgain)

        _ = state.unauthorized(now: start, waiter: 2, sentWithCurrent: isCurrent("fresh-sign-in"))
        state.set(nil)  // signed out during the refresh
        XCTAssertEqual(state.finishRefresh(.success(new)).result, .failure(.missingCredential))
        XCTAssertNil(state.credential)
    }
}
