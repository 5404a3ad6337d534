@testable import Courier
import XCTest

/// The HTTP/2 admission state machine against a simulated libcurl: no sockets.
final class StreamAdmissionTests: XCTestCase {
    /// libcurl 7.88 as measured: a started transfer takes a free stream on an open connection,
    /// else waits for a connection still being set up only if it is the first, else opens a new
    /// connection of its own, which is ready one perform later.
    private struct SimulatedCurl {
        let streamLimit: Int
        var connections: [Int] = []  // transfers per open connection
        var opening: [Int: Int] = [:]  // transfer → connection it is opening
        var placement: [Int: StreamAdmission<Int>.Placement] = [:]

        mutating func start(_ id: Int) {
            if let index = connections.firstIndex(where: { $0 < streamLimit }) {
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
        for _ in 0..<rounds {
            let batch = admission.admit()
            batch.forEach { curl.start($0) }
            started += batch.count
            let waiting = admission.unplaced
            for id in waiting { admission.observe(id, curl.placement[id] ?? .waiting) }
            curl.perform()
            for id in admission.unplaced { admission.observe(id, curl.placement[id] ?? .waiting) }
            if responding {
                for (id, placement) in curl.placement {
                    if case .joined(let connection, _) = placement {
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
        }
    }

    func testOneAtATimeEvenWithFreeStreams() {
        var admission = StreamAdmission<Int>()
        var curl = SimulatedCurl(streamLimit: 50)
        for id in 0..<50 { admission.submit(id, origin: "o") }
        _ = drive(&admission, &curl)
        for id in 0..<30 {
            admission.remove(id)
            curl.finish(id)
        }
        for id in 100..<140 { admission.submit(id, origin: "o") }
        XCTAssertEqual(admission.admit(), [100], "libcurl's stream count can overstate the limit: never a batch")
        XCTAssertTrue(admission.admit().isEmpty, "the next waits until the first is placed")
        admission.observe(100, .joined(connection: 0, isNew: false))
        XCTAssertEqual(admission.admit(), [101])
    }

    func testFreedStreamsLetWaitingTransfersIn() {
        var admission = StreamAdmission<Int>()
        for id in 0..<4 { admission.submit(id, origin: "o") }
        XCTAssertEqual(admission.admit(), [0], "the first transfer alone: nothing is known yet")
        admission.observe(0, .opening)
        XCTAssertTrue(admission.admit().isEmpty, "the others wait while it opens the connection")
        admission.observe(0, .joined(connection: 7, isNew: true))
        XCTAssertEqual(admission.admit(), [1], "a probe: is there a second stream?")
        admission.observe(1, .joined(connection: 7, isNew: false))
        XCTAssertEqual(admission.admit(), [2])
        admission.observe(2, .waiting)  // e.g. the host connection limit is reached
        XCTAssertTrue(admission.admit().isEmpty, "nothing more while the probe has no place")
        XCTAssertFalse(admission.isQueued(2))
        XCTAssertTrue(admission.isQueued(3))
        admission.remove(0)
        admission.observe(2, .joined(connection: 7, isNew: false))
        XCTAssertEqual(admission.mostStreams(origin: "o"), 2)
        XCTAssertEqual(admission.admit(), [3])
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

    func testHTTP1OriginsStopBeingGated() {
        var admission = StreamAdmission<Int>()
        var curl = SimulatedCurl(streamLimit: 1)
        for id in 0..<20 { admission.submit(id, origin: "https://h1:443") }
        let started = drive(&admission, &curl, rounds: 4)
        XCTAssertEqual(started, 20, "after the second connection, the rest go to libcurl at once")
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
