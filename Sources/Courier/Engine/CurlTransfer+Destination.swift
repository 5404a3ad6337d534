import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Downloads: the body goes to a file descriptor instead of memory. Loop thread only.
extension CurlTransfer {
    /// Opens (creating or truncating) the destination once, at the first hop. A resumed
    /// download keeps the first `resumeOffset` bytes and writes after them.
    func openDestination() -> CourierError? {
        guard let destination = token.options.destination, fileDescriptor < 0 else { return nil }
        let truncate = token.options.resumeOffset == nil ? O_TRUNC : 0
        let descriptor = open(destination.path, O_WRONLY | O_CREAT | truncate | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            return .invalidRequest(reason: "cannot open download destination \(destination.path): \(reason)")
        }
        fileDescriptor = descriptor
        rewindDestination()
        return nil
    }

    /// A redirect's body is not the download: start the file again (after the kept bytes of a
    /// resumed download).
    ///
    /// The file is truncated only when it holds bytes past `keep`. On ext4, truncating a file to
    /// zero makes its `close` write the whole file back to disk first (the replace-via-truncate
    /// safeguard, `auto_da_alloc`): a fresh download that truncated its empty file waited in
    /// `close` for all 512 MiB to reach the disk (Benchmarks/EXPERIMENTS.md, W4 to a file).
    func rewindDestination(to offset: Int64? = nil) {
        guard fileDescriptor >= 0 else { return }
        let keep = off_t(offset ?? token.options.resumeOffset ?? 0)
        var status = stat()
        if fstat(fileDescriptor, &status) != 0 || status.st_size > keep {
            _ = ftruncate(fileDescriptor, keep)
        }
        _ = lseek(fileDescriptor, keep, SEEK_SET)
    }

    /// Writes all of `bytes`; on failure remembers errno and returns false (aborting the transfer).
    func writeToDestination(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var pointer = bytes.baseAddress else { return true }
        var remaining = bytes.count
        while remaining > 0 {
            let written = write(fileDescriptor, pointer, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                fileWriteError = errno
                return false
            }
            remaining -= written
            pointer += written
        }
        return true
    }

    /// Closes the file; a failed download's partial file is removed.
    func closeDestination(keep: Bool) {
        guard fileDescriptor >= 0 else { return }
        close(fileDescriptor)
        fileDescriptor = -1
        if !keep, let destination = token.options.destination {
            unlink(destination.path)
        }
    }
}
