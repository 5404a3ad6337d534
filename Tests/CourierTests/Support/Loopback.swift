import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Raw loopback sockets for faults the test server cannot produce: a port nobody listens on, a
/// listener whose accept queue is full (so new connections hang in the handshake), and a server
/// that answers with arbitrary bytes.
enum Loopback {
    /// A TCP socket bound to 127.0.0.1 on an ephemeral port, listening when `backlog` is given.
    static func boundSocket(listenBacklog backlog: Int32? = nil) -> (descriptor: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopbackAddress(port: 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if let backlog { listen(fd, backlog) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    /// A port that was free a moment ago and has no listener now: connecting is refused.
    static func closedPort() -> Int {
        let (fd, port) = boundSocket()
        close(fd)
        return port
    }

    /// A listener with backlog 0 that never accepts, its queue filled by a few idle connections.
    final class Blackhole {
        let port: Int
        private var descriptors: [Int32] = []

        init() {
            let (listener, port) = boundSocket(listenBacklog: 0)
            self.port = port
            descriptors.append(listener)
            // Fill the accept queue; further SYNs are dropped by the kernel.
            var address = loopbackAddress(port: port)
            for _ in 0..<4 {
                let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
                _ = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                descriptors.append(client)
            }
            usleep(100_000)
        }

        deinit {
            for fd in descriptors { close(fd) }
        }
    }

    /// A one-connection server that answers whatever request it gets with `reply`, then closes.
    final class RawReplyServer: @unchecked Sendable {
        let port: Int
        private let listener: Int32

        init(reply: [UInt8]) {
            let (fd, port) = boundSocket(listenBacklog: 8)
            self.port = port
            listener = fd
            Thread.detachNewThread {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 65536)
                _ = recv(client, &buffer, buffer.count, 0)
                _ = reply.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                shutdown(client, Int32(SHUT_WR))
                usleep(200_000)
                close(client)
            }
        }

        deinit { close(listener) }
    }
}

/// Counts calls from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
