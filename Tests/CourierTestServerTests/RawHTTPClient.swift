import Foundation
import Glibc
import XCTest

/// A response read off a raw socket by ``RawHTTPClient``.
struct RawResponse {
    var status: Int
    var headers: [(String, String)]
    var body: Data
    /// The sizes of the chunks when the body was chunked, in order.
    var chunkSizes: [Int]?

    /// The first value of header `name` (case-insensitive).
    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A deliberately simple blocking HTTP/1.1 client over a raw socket, so tests control
/// exactly which bytes are sent and see exactly what comes back on one connection.
/// A receive timeout guards the test suite against hanging forever if the server misbehaves.
final class RawHTTPClient {
    enum ClientError: Error { case connect(Int32), closed, malformed(String) }

    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, receiveTimeoutSeconds: Int = 20) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError.connect(errno) }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        _ = inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw ClientError.connect(code)
        }
    }

    deinit { close(fd) }

    func send(_ text: String) { send(Data(text.utf8)) }

    func send(_ data: Data) {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return }
                offset += sent
            }
        }
    }

    /// Sends a GET (or other bodiless) request with `Host` and optional extra header lines.
    func get(_ target: String, method: String = "GET", extra: String = "") {
        send("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extra)\r\n")
    }

    /// Reads more bytes into the buffer; `false` at end of stream, error or timeout.
    @discardableResult
    private func fill() -> Bool {
        var scratch = [UInt8](repeating: 0, count: 65_536)
        let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: scratch[0..<count])
        return true
    }

    func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<newline])
                if line.last == 0x0D { line.removeLast() }
                buffer.removeFirst(newline + 1)
                return String(decoding: line, as: UTF8.self)
            }
            guard fill() else { throw ClientError.closed }
        }
    }

    func readExactly(_ count: Int) throws -> Data {
        while buffer.count < count {
            guard fill() else { throw ClientError.closed }
        }
        let data = Data(buffer[..<count])
        buffer.removeFirst(count)
        return data
    }

    /// Reads everything until the server closes the connection (or the receive timeout).
    func readToEnd() -> Data {
        while fill() {}
        let data = Data(buffer)
        buffer.removeAll()
        return data
    }

    /// Whether the server has closed the connection (reading yields end of stream with no data).
    func peerClosed() -> Bool {
        buffer.isEmpty && !fill()
    }

    /// Reads the status line and headers only.
    func readHead() throws -> (status: Int, headers: [(String, String)]) {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw ClientError.malformed(statusLine)
        }
        var headers: [(String, String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw ClientError.malformed(line) }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return (status, headers)
    }

    /// Reads one full response; `isHead` means no body follows regardless of the headers.
    func readResponse(isHead: Bool = false) throws -> RawResponse {
        let (status, headers) = try readHead()
        var response = RawResponse(status: status, headers: headers, body: Data(), chunkSizes: nil)
        if isHead || status == 204 || status == 304 || (100..<200).contains(status) { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            var sizes: [Int] = []
            while true {
                let sizeLine = try readLine()
                guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
                    throw ClientError.malformed(sizeLine)
                }
                if size == 0 { break }
                sizes.append(size)
                response.body.append(try readExactly(size))
                guard try readLine().isEmpty else { throw ClientError.malformed("chunk terminator") }
            }
            while try !readLine().isEmpty {}
            response.chunkSizes = sizes
        } else if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            response.body = try readExactly(length)
        } else {
            response.body = readToEnd()
        }
        return response
    }
}

/// Polls `condition` for state that another thread changes; not a timing assertion: the bound
/// (60 s by default) is there only so that a broken build cannot hang.
func waitFor(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(2_000)
    }
    return condition()
}

/// Writes `data` to a fresh temporary file and returns its path.
func temporaryFile(_ data: Data, suffix: String) throws -> String {
    let path = NSTemporaryDirectory() + "courier-testserver-\(UUID().uuidString)\(suffix)"
    try data.write(to: URL(fileURLWithPath: path))
    return path
}

/// Runs an executable and returns its standard output, or `nil` if it is missing or fails.
func runTool(_ path: String, _ arguments: [String]) -> Data? {
    guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? data : nil
}
