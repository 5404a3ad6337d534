import Glibc

/// An error starting ``TestHTTPServer``: which system call failed and its `errno`.
public struct TestHTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The operation that failed, e.g. `"bind"`.
    public let operation: String
    /// The `errno` value (0 when not from a system call).
    public let code: Int32

    /// Creates an error.
    public init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// A readable description, including `strerror` text.
    public var description: String {
        code == 0
            ? "TestHTTPServer: \(operation)" : "TestHTTPServer: \(operation) failed: \(String(cString: strerror(code)))"
    }
}

/// Thin blocking POSIX socket helpers. All descriptors are created close-on-exec so
/// child processes spawned by tests do not inherit them.
enum POSIXSocket {
    /// The listen backlog; the kernel caps it at `net.core.somaxconn`.
    static let backlog: Int32 = 1024

    /// Creates a TCP socket listening on `host` (an IPv4 or IPv6 literal, or `localhost`)
    /// at `port` (0 = ephemeral). Returns the descriptor, the actual port, and whether it is IPv6.
    static func listen(
        host: String, port requestedPort: Int
    ) throws(TestHTTPServerError)
        -> (fd: Int32, port: Int, isIPv6: Bool)
    {
        guard let wirePort = UInt16(exactly: requestedPort) else {
            throw TestHTTPServerError(operation: "use port \(requestedPort) (expected 0...65535)", code: 0)
        }
        let address = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let isIPv6: Bool
        if inet_pton(AF_INET, address, &v4.sin_addr) == 1 {
            isIPv6 = false
        } else if inet_pton(AF_INET6, address, &v6.sin6_addr) == 1 {
            isIPv6 = true
        } else {
            throw TestHTTPServerError(operation: "parse host \"\(host)\" (expected an IP literal)", code: 0)
        }
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestHTTPServerError(operation: "socket", code: errno) }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound: Int32
        if isIPv6 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = wirePort.bigEndian
            bound = withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = wirePort.bigEndian
            bound = withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard bound == 0 else { throw failure("bind", closing: fd) }
        guard Glibc.listen(fd, backlog) == 0 else { throw failure("listen", closing: fd) }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw failure("getsockname", closing: fd) }
        let port = withUnsafePointer(to: &storage) { pointer -> UInt16 in
            if isIPv6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt16(bigEndian: $0.pointee.sin_port)
            }
        }
        return (fd, Int(port), isIPv6)
    }

    /// Captures `errno` for `operation`, closes `fd`, and returns the error to throw.
    private static func failure(_ operation: String, closing fd: Int32) -> TestHTTPServerError {
        let error = TestHTTPServerError(operation: operation, code: errno)
        close(fd)
        return error
    }

    /// Accepts one connection (retrying `EINTR` and transient errors). Returns `nil`
    /// when the listening socket is shut down or broken. The new socket gets `TCP_NODELAY`.
    static func accept(_ listener: Int32) -> Int32? {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                var on: Int32 = 1
                _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                return fd
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO, EAGAIN:
                continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                // Out of descriptors or memory: back off briefly instead of spinning or dying.
                usleep(10_000)
                continue
            default:
                return nil
            }
        }
    }

    /// Writes all of `bytes`, retrying partial writes and `EINTR`. `false` if the peer is gone.
    /// Uses `MSG_NOSIGNAL` so a closed peer yields `EPIPE` instead of `SIGPIPE`.
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var pointer = bytes.baseAddress else { return true }
        var remaining = bytes.count
        while remaining > 0 {
            let sent = send(fd, pointer, remaining, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            if sent == 0 { return false }
            pointer += sent
            remaining -= sent
        }
        return true
    }

    /// Reads up to `buffer.count` bytes. Returns the count, 0 at end of stream, -1 on error.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return -1 }
        while true {
            let count = recv(fd, base, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// Waits up to `milliseconds` for `fd` to become readable (or hung up).
    static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&descriptor, 1, milliseconds)
            if result < 0 && errno == EINTR { continue }
            return result > 0
        }
    }

    /// Reads and discards input until the peer closes, an error occurs, or the socket is shut down.
    static func drainUntilClosed(_ fd: Int32) {
        withUnsafeTemporaryAllocation(byteCount: 16_384, alignment: 1) { buffer in
            while receive(fd, into: buffer) > 0 {}
        }
    }

    /// Half-closes the sending side so the peer sees a clean end of stream, discards any
    /// input for up to `lingerMilliseconds` (so unread client data does not turn into a
    /// reset that destroys the response in flight). The caller closes the descriptor.
    static func lingeringShutdown(_ fd: Int32, lingerMilliseconds: Int32 = 1000) {
        Glibc.shutdown(fd, Int32(SHUT_WR))
        var remaining = lingerMilliseconds
        withUnsafeTemporaryAllocation(byteCount: 16_384, alignment: 1) { buffer in
            while remaining > 0 {
                let slice = min(remaining, 100)
                remaining -= slice
                guard waitReadable(fd, milliseconds: slice) else { continue }
                if receive(fd, into: buffer) <= 0 { break }
            }
        }
    }

    /// Makes the coming `close` of `fd` send a reset (RST) instead of a clean end of stream.
    static func resetOnClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Shuts down both directions of `fd`, waking any thread blocked on it.
    static func shutdownBoth(_ fd: Int32) {
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }
}
