@testable import Courier
import XCTest

/// The HTTP/2 admission state machine against a simulated libcurl: no sockets.
final class StreamAdmissionTests: XCTestCase {
    /// libcurl 7.88 as measured: a started transfer takes a free stream on an open connection,
    /// else waits for a connection still being set up only if it is the first, else opens a new
    /// connection of its own, which is ready one perform later. Until a connection has delivered
    /// a response, libcurl does not know the server's limit and places up to 100 streams on it;
    /// the server refuses those past its limit.
    private struct SimulatedCurl {
        let streamLimit: Int
        var connections: [Int] = []  // transfers per open connection
        var opening: [Int: Int] = [:]  // transfer → connection it is opening
        var placement: [Int: StreamAdmission<Int>.Placement] = [:]
        var settled: Set<Int> = []  // connections whose server settings libcurl has processed
        var refused = 0  // streams the server refused

        mutating func start(_ id: Int) {
            if let index = connections.indices.first(where: {
                connections[$0] < (settled.contains($0) ? streamLimit : 100)
            }) {
                if connections[index] >= streamLimit { refused += 1 }
                connections[index] += 1
                placement[id] = .joined(connection: index, isNew: false)
            } else {
                connections.append(0)
                opening[id] = connections.count - 1
                placement[id] = .opening
            }
        }

        /// Connections being opened become ready.
        mutating func perform() {
            for (id, connection) in opening {
                connections[connection] += 1
                placement[id] = .joined(connection: connection, isNew: true)
            }
            opening.removeAll()
        }

        mutating func finish(_ id: Int) {
            if case .joined(let connection, _)? = placement.removeValue(forKey: id) { connections[connection] -= 1 }
        }
    }

    /// Runs rounds of admit → start → perform → observe until nothing changes. With `responding`,
    /// every connection delivers a response (so its settings are known) as soon as it carries a request.
    private func drive(
        _ admission: inout StreamAdmission<Int>, _ curl: inout SimulatedCurl, rounds: Int = 1000,
        responding: Bool = true
    ) -> Int {
        var started = 0
        // One instant for the whole drive: the settle delay never passes (no timing in the test).
        let now = MonotonicInstant.now
        for _ in 0..<rounds {
            let batch = admission.admit(now: now)
            batch.forEach { curl.start($0) }
            started += batch.count
            let waiting = admission.unplaced
            for id in waiting { admission.observe(id, curl.placement[id] ?? .waiting, now: now) }
            curl.perform()
            for id in admission.unplaced { admission.observe(id, curl.placement[id] ?? .waiting, now: now) }
            if responding {
                for (id, placement) in curl.placement {
                    if case .joined(let connection, _) = placement {
                        curl.settled.insert(connection)
                        admission.responseArrived(id, connection: connection)
                    }
                }
            }
            if batch.isEmpty && waiting.isEmpty { break }
        }
        return started
    }

    func testConnectionsStayNearRequestsOverStreamLimit() {
        for (requests, limit) in [(200, 50), (200, 128), (100, 100), (37, 10), (1000, 100), (64, 20)] {
            var admission = StreamAdmission<Int>()
            var curl = SimulatedCurl(streamLimit: limit)
            for id in 0..<requests { admission.submit(id, origin: "https://h:443") }
            let started = drive(&admission, &curl)
            XCTAssertEqual(started, requests, "\(requests)/\(limit): every request starts")
            let needed = (requests + limit - 1) / limit
            XCTAssertEqual(curl.connections.count, needed, "\(requests)/\(limit)")
            XCTAssertEqual(admission.mostStreams(origin: "https://h:443"), limit)
            XCTAssertEqual(curl.refused, 0, "\(requests)/\(limit): no stream past the server's limit")
        }
    }

    /// A server allowing one stream per connection (issue 20): libcurl never learns its limit
    /// too late, so nothing is refused, and it is not mistaken for HTTP/1.x.
    func testAServerAllowingOneStreamRefusesNothing() {
        var admission = StreamAdmission<Int>()
        var curl = SimulatedCurl(streamLimit: 1)
        for id in 0..<50 { admission.submit(id, origin: "https://one:443") }
        XCTAssertEqual(drive(&admission, &curl), 50)
        XCTAssertEqual(curl.refused, 0)
        XCTAssertEqual(curl.connections, Array(repeating: 1, count: 50))
        XCTAssertFalse(admission.isSerial(origin: "https://one:443"))
    }

    /// Requests that finish (one stream per connection, 1,000 requests kept 50 in flight, each
    /// answered `latency` rounds after it went out), as the fault matrix's row sends them. A
    /// connection libcurl reuses has answered before, so libcurl knows its limit: the next
    /// transfer starts at once, and the connections grow to carry the 50 side by side. Were a
    /// reused connection held back like a new one, the requests would go out nearly one by one.
    func testAServerAllowingOneStreamIsReachedOverManyConnectionsWhenRequestsFinish() {
        var admission = StreamAdmission<Int>()
        var curl = SimulatedCurl(streamLimit: 1)
        let now = MonotonicInstant.now  // the settle delay never passes
        let total = 1000, width = 50, latency = 60
        var submitted = 0, finished = 0, mostInFlight = 0, rounds = 0
        var answerAt: [Int: Int] = [:]  // transfer → round its response arrives
        while finished < total, rounds < 100_000 {
            rounds += 1
            while submitted - finished < width, submitted < total {
                admission.submit(submitted, origin: "https://one:443")
                submitted += 1
            }
            admission.admit(now: now).forEach { curl.start($0) }
            for id in admission.unplaced { admission.observe(id, curl.placement[id] ?? .waiting, now: now) }
            curl.perform()
            for id in admission.unplaced { admission.observe(id, curl.placement[id] ?? .waiting, now: now) }
            for (id, placement) in curl.placement {
                guard case .joined(let connection, _) = placement else { continue }
                let at = answerAt[id] ?? rounds + latency
                answerAt[id] = at
                guard at <= rounds else { continue }
                curl.settled.insert(connection)
                admission.responseArrived(id, connection: connection)
                admission.remove(id)
                curl.finish(id)
                answerAt[id] = nil
                finished += 1
            }
            mostInFlight = max(mostInFlight, curl.connections.reduce(0, +))
        }
        XCTAssertEqual(finished, total, "every request is answered")
        XCTAssertEqual(curl.refused, 0, "no stream past the server's limit")
        XCTAssertGreaterThanOrEqual(mostInFlight, width / 2, "requests go out side by side, over many connections")
        XCTAssertLessThanOrEqual(curl.connections.count, width, "no more connections than requests in flight")
    }

    /// A connection that has answered stays known while idle; a new connection that happens to
    /// get the same local port (the old one closed) is new again: one stream until it answers.
    func testAReusedConnectionIsKnownAndANewOneOnTheSamePortIsNot() {
        var admission = StreamAdmission<Int>()
        for id in 0..<5 { admission.submit(id, origin: "o") }
        start(0, on: 7, isNew: true, &admission)
        XCTAssertTrue(admission.admit(now: instant).isEmpty, "one stream until the connection has answered")
        admission.responseArrived(0, connection: 7)
        admission.remove(0)
        start(1, on: 7, isNew: false, &admission)
        XCTAssertEqual(
            admission.admit(now: instant), [2], "libcurl reused a connection that has answered: it knows the limit")
        admission.observe(2, .opening, now: instant)
        admission.remove(1)
        admission.observe(2, .joined(connection: 7, isNew: true), now: instant)
        XCTAssertTrue(admission.admit(now: instant).isEmpty, "a new connection on port 7: its settings are not known")
        admission.responseArrived(2, connection: 7)
        XCTAssertEqual(admission.admit(now: instant), [3])
    }

    /// An origin remembers a bounded number of settled connections: past
    /// ``StreamAdmission/rememberedConnections``, the idle ones are forgotten, and one of them,
    /// reused, waits for a response again (safe, only slower).
    func testIdleSettledConnectionsAreForgottenPastTheBound() {
        var admission = StreamAdmission<Int>()
        admission.submit(-1, origin: "o")  // keeps the origin busy, so it is not forgotten whole
        start(-1, on: 100_000, isNew: true, &admission)
        admission.responseArrived(-1, connection: 100_000)
        for id in 0...StreamAdmission<Int>.rememberedConnections {
            admission.submit(id, origin: "o")
            start(id, on: id, isNew: true, &admission)
            admission.responseArrived(id, connection: id)
            admission.remove(id)
        }
        admission.submit(1000, origin: "o")
        admission.submit(1001, origin: "o")
        start(1000, on: 0, isNew: false, &admission)
        XCTAssertTrue(admission.admit(now: instant).isEmpty, "connection 0 was forgotten: one stream until it answers")
        admission.responseArrived(1000, connection: 0)
        XCTAssertEqual(admission.admit(now: instant), [1001])
    }

    /// One instant for a whole test: the settle delay never passes.
    private let instant = MonotonicInstant.now

    /// Admits `id`, the next transfer queued, and sees it go out on `connection`.
    private func start(
        _ id: Int, on connection: Int, isNew: Bool, _ admission: inout StreamAdmission<Int>,
        line: UInt = #line
    ) {
        XCTAssertEqual(admission.admit(now: instant), [id], line: line)
        admission.observe(id, .joined(connection: connection, isNew: isNew), now: instant)
    }

    func testOneAtATimeEvenWithFreeStreams() {
        let t = MonotonicInstant.now  // one instant: the settle delay never passes
        var admission = StreamAdmission<Int>()
        var curl = SimulatedCurl(streamLimit: 50)
        for id in 0..<50 { admission.submit(id, origin: "o") }
        _ = drive(&admission, &curl)
        for id in 0..<30 {
            admission.remove(id)
            curl.finish(id)
        }
        for id in 100..<140 { admission.submit(id, origin: "o") }
        XCTAssertEqual(admission.admit(now: t), [100], "libcurl's stream count can overstate the limit: never a batch")
        XCTAssertTrue(admission.admit(now: t).isEmpty, "the next waits until the first is placed")
        admission.observe(100, .joined(connection: 0, isNew: false), now: t)
        XCTAssertEqual(admission.admit(now: t), [101])
    }

    func testFreedStreamsLetWaitingTransfersIn() {
        let t = MonotonicInstant.now  // one instant: the settle delay never passes
        var admission = StreamAdmission<Int>()
        for id in 0..<4 { admission.submit(id, origin: "o") }
        XCTAssertEqual(admission.admit(now: t), [0], "the first transfer alone: nothing is known yet")
        admission.observe(0, .opening, now: t)
        XCTAssertTrue(admission.admit(now: t).isEmpty, "the others wait while it opens the connection")
        admission.observe(0, .joined(connection: 7, isNew: true), now: t)
        XCTAssertTrue(admission.admit(now: t).isEmpty, "one stream until the connection has answered")
        admission.responseArrived(0, connection: 7)
        XCTAssertEqual(admission.admit(now: t), [1], "a probe: is there a second stream?")
        admission.observe(1, .joined(connection: 7, isNew: false), now: t)
        XCTAssertEqual(admission.admit(now: t), [2])
        admission.observe(2, .waiting, now: t)  // e.g. the host connection limit is reached
        XCTAssertTrue(admission.admit(now: t).isEmpty, "nothing more while the probe has no place")
        XCTAssertFalse(admission.isQueued(2))
        XCTAssertTrue(admission.isQueued(3))
        admission.remove(0)
        admission.observe(2, .joined(connection: 7, isNew: false), now: t)
        XCTAssertEqual(admission.mostStreams(origin: "o"), 2)
        XCTAssertEqual(admission.admit(now: t), [3])
    }

    func testAConnectionCarriesFewStreamsUntilItHasResponded() {
        var admission = StreamAdmission<Int>()
        var curl = SimulatedCurl(streamLimit: 100)
        for id in 0..<60 { admission.submit(id, origin: "o") }
        let cap = StreamAdmission<Int>.unsettledStreams
        XCTAssertEqual(
            drive(&admission, &curl, responding: false), cap,
            "before the server's settings can be known, at most \(cap) streams")
        XCTAssertEqual(curl.connections, [cap], "and no second connection")
        admission.responseArrived(0, connection: 0)
        XCTAssertEqual(drive(&admission, &curl, responding: false), 60 - cap)
        XCTAssertEqual(curl.connections, [60])
    }

    /// A slow first response (a long poll) holds the others back for the settle delay at most:
    /// the server's SETTINGS come within a round trip of the connection's set-up.
    func testAConnectionCountsAsSettledAfterTheSettleDelay() {
        var admission = StreamAdmission<Int>()
        let start = MonotonicInstant.now
        for id in 0..<3 { admission.submit(id, origin: "o") }
        XCTAssertEqual(admission.admit(now: start), [0])
        admission.observe(0, .joined(connection: 4, isNew: true), now: start)
        let delay = StreamAdmission<Int>.settleDelay
        XCTAssertEqual(admission.nextSettling(now: start), start + delay, "the engine wakes up then")
        XCTAssertTrue(admission.admit(now: start + delay / 2).isEmpty)
        XCTAssertEqual(admission.admit(now: start + delay), [1])
        admission.observe(1, .joined(connection: 4, isNew: false), now: start + delay)
        XCTAssertNil(admission.nextSettling(now: start + delay), "nothing waits for settings any more")
        XCTAssertEqual(admission.admit(now: start + delay), [2])
    }

    func testHTTP1OriginsStopBeingGated() {
        // The engine reports an HTTP/1.x response head with markSerial: the rest go at once.
        var admission = StreamAdmission<Int>()
        var curl = SimulatedCurl(streamLimit: 1)
        for id in 0..<20 { admission.submit(id, origin: "https://h1:443") }
        XCTAssertEqual(drive(&admission, &curl, rounds: 4, responding: false), 1, "one until it answers")
        admission.markSerial(origin: "https://h1:443")
        XCTAssertEqual(admission.admit().count, 19)
        XCTAssertTrue(admission.isSerial(origin: "https://h1:443"))

        var told = StreamAdmission<Int>()
        for id in 0..<5 { told.submit(id, origin: "o") }
        XCTAssertEqual(told.admit().count, 1)
        told.markSerial(origin: "o")
        XCTAssertEqual(told.admit().count, 4)
    }

    func testOriginsAreIndependentAndRemovalIsComplete() {
        var admission = StreamAdmission<Int>()
        admission.submit(1, origin: "a")
        admission.submit(2, origin: "b")
        XCTAssertEqual(Set(admission.admit()), [1, 2])
        admission.submit(3, origin: "a")
        admission.remove(3)
        XCTAssertFalse(admission.isQueued(3))
        admission.observe(1, .joined(connection: 5, isNew: true))
        XCTAssertEqual(admission.mostStreams(origin: "a"), 1)
        admission.remove(1)
        admission.remove(2)
        XCTAssertTrue(admission.unplaced.isEmpty)
        XCTAssertTrue(admission.admit().isEmpty)
        XCTAssertEqual(admission.mostStreams(origin: "a"), 0, "an idle origin is forgotten")
    }
}
