import Courier
import Foundation

/// Where the examples' ``NetworkLogger`` lines go: standard output, indented, unless a scenario
/// run (or a test) collects them for the current task.
public enum DemoLog {
    /// Writes one log entry; read when a logger is created, so each request logs where its
    /// caller's task said.
    @TaskLocal public static var write: @Sendable (String) -> Void = { print($0) }

    /// A ``NetworkLogger`` at `level` writing through ``write``, each line indented by two spaces.
    public static func logger(level: NetworkLogger.Level = .basic) -> NetworkLogger {
        let write = self.write
        return NetworkLogger(level: level) { entry in
            write(entry.message.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        }
    }
}

/// Log lines collected from any thread.
final class LogLines: @unchecked Sendable {
    // @unchecked: `storage` is only touched under `lock`.
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ line: String) { lock.withLock { storage.append(line) } }

    var lines: [String] { lock.withLock { storage } }
}
