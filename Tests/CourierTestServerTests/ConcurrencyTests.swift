import CourierTestServer
import Foundation
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Many simultaneous connections, and a real client (URLSession on top of libcurl).
final class ConcurrencyTests: XCTestCase {
    func testTwoHundredSimultaneousConnections() throws {
        let server = try makeServer(self)
        let count = 200
        // Open every connection first, so all of them are alive at the same time.
        let clients = try (0..<count).map { _ in try RawHTTPClient(port: server.port) }
        for (index, client) in clients.enumerated() {
            client.get("/echo?i=\(index)")
        }
        XCTAssertTrue(waitFor { server.openConnections == count })
        var connectionIDs = Set<Int>()
        for (index, client) in clients.enumerated() {
            let response = try client.readResponse()
            XCTAssertEqual(response.status, 200)
            let echo = try JSONDecoder().decode(TestHTTPEcho.self, from: response.body)
            XCTAssertEqual(echo.query["i"], String(index))
            connectionIDs.insert(echo.connectionID)
        }
        // Every connection stays usable for a second request.
        for client in clients { client.get("/hello") }
        for client in clients { XCTAssertEqual(try client.readResponse().text, "Hello, Courier") }
        XCTAssertEqual(connectionIDs.count, count)
        XCTAssertEqual(server.connectionsAccepted, count)
        XCTAssertEqual(server.requestsServed, 2 * count)
    }

    func testConcurrentThreadsHammeringOneServer() throws {
        let server = try makeServer(self)
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 32) { worker in
            do {
                let client = try RawHTTPClient(port: server.port)
                for request in 0..<10 {
                    client.send("POST /upload HTTP/1.1\r\nContent-Length: \(request)\r\n\r\n")
                    client.send(Data(repeating: UInt8(worker), count: request))
                    let summary = try JSONDecoder().decode(
                        TestHTTPUploadSummary.self, from: try client.readResponse().body)
                    if summary.bytes != request { failures.add("worker \(worker) request \(request)") }
                }
            } catch {
                failures.add("worker \(worker): \(error)")
            }
        }
        XCTAssertEqual(failures.all, [])
        XCTAssertEqual(server.requestsServed, 320)
        XCTAssertEqual(server.connectionsAccepted, 32)
    }

    func testURLSessionGetAndPost() throws {
        let server = try makeServer(self)
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }

        let (getData, getStatus) = try fetch(session, URLRequest(url: server.url("/hello")))
        XCTAssertEqual(getStatus, 200)
        XCTAssertEqual(String(decoding: getData, as: UTF8.self), "Hello, Courier")

        var post = URLRequest(url: server.url("/echo?from=urlsession"))
        post.httpMethod = "POST"
        post.httpBody = Data("payload".utf8)
        post.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        let (postData, postStatus) = try fetch(session, post)
        XCTAssertEqual(postStatus, 200)
        let echo = try JSONDecoder().decode(TestHTTPEcho.self, from: postData)
        XCTAssertEqual(echo.method, "POST")
        XCTAssertEqual(echo.body, "payload")
        XCTAssertEqual(echo.query["from"], "urlsession")
    }

    /// Runs one data task to completion.
    private func fetch(_ session: URLSession, _ request: URLRequest) throws -> (Data, Int) {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { data, response, error in
            box.set(data: data, status: (response as? HTTPURLResponse)?.statusCode, error: error)
            done.signal()
        }.resume()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        let result = box.get()
        if let error = result.error { throw error }
        return (result.data ?? Data(), result.status ?? 0)
    }
}

/// Thread-safe collection of failure messages from concurrent workers.
private final class Failures: @unchecked Sendable {
    // @unchecked: `messages` is only touched while holding `lock`.
    private let lock = NSLock()
    private var messages: [String] = []

    func add(_ message: String) {
        lock.lock()
        messages.append(message)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return messages
    }
}

/// Carries a data task's completion values back to the test thread.
private final class Box: @unchecked Sendable {
    // @unchecked: fields are only touched while holding `lock`.
    private let lock = NSLock()
    private var data: Data?
    private var status: Int?
    private var error: (any Error)?

    func set(data: Data?, status: Int?, error: (any Error)?) {
        lock.lock()
        (self.data, self.status, self.error) = (data, status, error)
        lock.unlock()
    }

    func get() -> (data: Data?, status: Int?, error: (any Error)?) {
        lock.lock()
        defer { lock.unlock() }
        return (data, status, error)
    }
}
