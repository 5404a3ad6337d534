import Courier
import Foundation

/// Suspends until `condition` holds: the event a test waits for (a request reaching the server or
/// an interceptor, a backoff being scheduled), never a duration. Bounded at 60 s only so that a
/// broken build cannot hang; the assertion that follows says what was expected.
func waitUntil(_ condition: () -> Bool) async {
    for _ in 0..<12_000 where !condition() { try? await Task.sleep(nanoseconds: 5_000_000) }
}

/// Blocks the calling thread (a test server's route) until `condition` holds, for at most 60 s.
func blockUntil(_ condition: () -> Bool) {
    for _ in 0..<12_000 where !condition() { usleep(5_000) }
}

/// A task that fetches `url` with `data()` and ends with the `CourierError` it threw (nil if it
/// succeeded): for tests that cancel the task and check how the request ended.
func dataTask(_ session: Session, _ url: URL) -> Task<CourierError?, Never> {
    Task {
        do throws(CourierError) {
            _ = try await session.request(.url(url)).data()
            return nil
        } catch {
            return error
        }
    }
}
