import Courier
import XCTest

extension XCTestCase {
    /// Adds a completion handler to `request` that checks the request ended with
    /// ``CourierError/cancelled``: `done` is fulfilled when the handler runs, and `calls` counts
    /// its runs (a handler must run exactly once).
    func expectCancellation(of request: DataRequest) -> (done: XCTestExpectation, calls: Counter) {
        let calls = Counter()
        let done = expectation(description: "completed with .cancelled")
        request.response { response in
            XCTAssertEqual(response.error, .cancelled)
            calls.increment()
            done.fulfill()
        }
        return (done, calls)
    }
}
