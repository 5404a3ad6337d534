import Foundation
import HeapUsage

/// The process resources the soak watches, read from /proc and the allocator.
struct Resources: CustomStringConvertible {
    var fileDescriptors: Int
    var threads: Int
    /// Bytes the allocator has handed out and not had back (glibc's mallinfo2).
    var heapBytes: Int
    var residentBytes: Int

    static func current() -> Resources {
        let pages = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8))?
            .split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return Resources(
            fileDescriptors: entries(in: "/proc/self/fd"), threads: entries(in: "/proc/self/task"),
            heapBytes: courier_heap_in_use(), residentBytes: pages * Int(sysconf(Int32(_SC_PAGESIZE))))
    }

    private static func entries(in directory: String) -> Int {
        // Listing /proc/self/fd opens one descriptor itself, which is not counted.
        ((try? FileManager.default.contentsOfDirectory(atPath: directory))?.count ?? 1) - (directory.hasSuffix("fd") ? 1 : 0)
    }

    func maxed(with other: Resources) -> Resources {
        Resources(fileDescriptors: max(fileDescriptors, other.fileDescriptors), threads: max(threads, other.threads),
                  heapBytes: max(heapBytes, other.heapBytes), residentBytes: max(residentBytes, other.residentBytes))
    }

    var description: String {
        "\(fileDescriptors) fds, \(threads) threads, heap \(heapBytes / 1024) KiB, RSS \(residentBytes / 1024 / 1024) MiB"
    }
}

/// Waits (up to 20 s) for threads that are winding down (connection threads of the stopped
/// server, the engines' loop threads, idle dispatch workers) to be gone, then measures. Without
/// a `target`, until descriptors and threads have not changed for two seconds; with one, until
/// it is reached.
func settledResources(towards target: Resources?) -> Resources {
    var latest = Resources.current()
    var unchanged = 0
    for _ in 0..<200 {
        Thread.sleep(forTimeInterval: 0.1)
        let now = Resources.current()
        if let target {
            if now.fileDescriptors <= target.fileDescriptors, now.threads <= target.threads,
               now.heapBytes <= target.heapBytes + 512 * 1024 {
                return now
            }
        } else {
            let same = now.threads == latest.threads && now.fileDescriptors == latest.fileDescriptors
            unchanged = same ? unchanged + 1 : 0
            if unchanged >= 20 { return now }
        }
        latest = now
    }
    return latest
}
