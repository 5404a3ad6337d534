import CourierTestServer
import Foundation
import XCTest

/// The fault-injection routes and behaviours, and shutdown.
final class FaultTests: XCTestCase {
    func testTruncatedSendsFewerBytesThanDeclaredThenCloses() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/truncated?send=5&declared=50")
        let head = try client.readHead()
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers.first { $0.0 == "Content-Length" }?.1, "50")
        let rest = client.readToEnd()
        XCTAssertEqual(rest, Data("abcde".utf8))
    }

    func testChunkedResponseFraming() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/chunked?chunks=4&size=7")
        let response = try client.readResponse()
        XCTAssertEqual(response.header("Transfer-Encoding"), "chunked")
        XCTAssertNil(response.header("Content-Length"))
        XCTAssertEqual(response.chunkSizes, [7, 7, 7, 7])
        XCTAssertEqual(response.body, TestHTTPServer.alphabetBytes(count: 28))
        XCTAssertEqual(response.text, "abcdefghijabcdefghijabcdefgh")
        client.get("/chunked?chunks=0&size=5")
        let empty = try client.readResponse()
        XCTAssertEqual(empty.chunkSizes, [])
        XCTAssertEqual(server.connectionsAccepted, 1)
    }

    func testCloseBeforeHeadersSendsNothing() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/close-before-headers")
        XCTAssertEqual(client.readToEnd(), Data())
        XCTAssertEqual(server.requestsServed, 1)
    }

    func testNeverAnswersUntilShutdown() throws {
        let server = try TestHTTPServer()
        let client = try RawHTTPClient(port: server.port)
        client.get("/never")
        XCTAssertTrue(waitFor { server.requestsServed == 1 })
        server.shutdown()
        XCTAssertEqual(client.readToEnd(), Data())
        XCTAssertEqual(server.openConnections, 0)
    }

    func testNeverEndsWhenClientCloses() throws {
        let server = try makeServer(self)
        do {
            let client = try RawHTTPClient(port: server.port)
            client.get("/never")
            XCTAssertTrue(waitFor { server.requestsServed == 1 })
        }
        XCTAssertTrue(waitFor { server.openConnections == 0 })
    }

    func testShutdownInterruptsDelayTrickleAndStall() throws {
        let server = try TestHTTPServer()
        let delayed = try RawHTTPClient(port: server.port)
        delayed.get("/delay?ms=600000")
        let trickling = try RawHTTPClient(port: server.port)
        trickling.get("/trickle?size=100&chunk=1&interval=600000")
        let stalled = try RawHTTPClient(port: server.port)
        stalled.get("/headers-then-stall")
        let idle = try RawHTTPClient(port: server.port)
        idle.get("/hello")
        XCTAssertEqual(try idle.readResponse().status, 200)

        let stallHead = try stalled.readHead()
        XCTAssertEqual(stallHead.headers.first { $0.0 == "Content-Length" }?.1, "1000")
        XCTAssertEqual(try stalled.readExactly(10), Data("abcdefghij".utf8))
        let trickleHead = try trickling.readHead()
        XCTAssertEqual(trickleHead.status, 200)
        XCTAssertEqual(try trickling.readExactly(1), Data("a".utf8))
        XCTAssertTrue(waitFor { server.requestsServed == 4 })

        server.shutdown()
        XCTAssertEqual(delayed.readToEnd(), Data())
        XCTAssertEqual(trickling.readToEnd(), Data())
        XCTAssertEqual(stalled.readToEnd(), Data())
        XCTAssertTrue(idle.peerClosed())
        XCTAssertEqual(server.openConnections, 0)
        XCTAssertTrue(server.isShutDown)
    }

    func testDelayThenAnswers() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/delay?ms=20")
        let response = try client.readResponse()
        XCTAssertEqual(response.text, "done")
    }

    func testTrickleDeliversTheWholeBody() throws {
        let server = try makeServer(self)
        let client = try RawHTTPClient(port: server.port)
        client.get("/trickle?size=35&chunk=10&interval=5")
        let response = try client.readResponse()
        XCTAssertEqual(response.header("Content-Length"), "35")
        XCTAssertEqual(response.body, TestHTTPServer.alphabetBytes(count: 35))
        client.get("/hello")
        XCTAssertEqual(try client.readResponse().status, 200)
    }

    func testCustomRouteFaultBehaviours() throws {
        let server = try makeServer(self)
        let body = Data("0123456789".utf8)
        server.route("/c-chunked") { _ in .data(body).with(.chunked(chunkSize: 4)) }
        server.route("/c-truncate") { _ in .data(body).with(.truncate(sendBytes: 3, declaredLength: 10)) }
        server.route("/c-close") { _ in .text("never sent").with(.closeBeforeHeaders) }
        server.route("/c-delay") { _ in .text("late").with(.delay(ms: 1)) }

        let client = try RawHTTPClient(port: server.port)
        client.get("/c-chunked")
        let chunked = try client.readResponse()
        XCTAssertEqual(chunked.chunkSizes, [4, 4, 2])
        XCTAssertEqual(chunked.body, body)
        client.get("/c-delay")
        XCTAssertEqual(try client.readResponse().text, "late")
        client.get("/c-truncate")
        _ = try client.readHead()
        XCTAssertEqual(client.readToEnd(), Data("012".utf8))

        let closing = try RawHTTPClient(port: server.port)
        closing.get("/c-close")
        XCTAssertEqual(closing.readToEnd(), Data())
    }

    func testShutdownClosesListenerAndIsIdempotent() throws {
        let server = try TestHTTPServer()
        let port = server.port
        server.shutdown()
        server.shutdown()
        XCTAssertThrowsError(try RawHTTPClient(port: port))
    }

    func testDeinitStopsTheServer() throws {
        var port = 0
        var client: RawHTTPClient?
        do {
            let server = try TestHTTPServer()
            port = server.port
            client = try RawHTTPClient(port: port)
            client?.get("/never")
            XCTAssertTrue(waitFor { server.requestsServed == 1 })
        }
        XCTAssertEqual(client?.readToEnd(), Data())
        XCTAssertThrowsError(try RawHTTPClient(port: port))
    }
}

/// Shutdown initiated from inside the server.
final class ShutdownFromHandlerTests: XCTestCase {
    func testHandlerMayShutDownItsOwnServer() throws {
        let server = try TestHTTPServer()
        server.route("/stop") { [weak server] _ in
            server?.shutdown()
            return .text("stopping")
        }
        let bystander = try RawHTTPClient(port: server.port)
        bystander.get("/hello")
        XCTAssertEqual(try bystander.readResponse().status, 200)
        let client = try RawHTTPClient(port: server.port)
        client.get("/stop")
        _ = client.readToEnd()
        XCTAssertTrue(waitFor { server.isShutDown && server.openConnections == 0 })
        XCTAssertTrue(bystander.peerClosed())
        XCTAssertThrowsError(try RawHTTPClient(port: server.port))
    }
}
