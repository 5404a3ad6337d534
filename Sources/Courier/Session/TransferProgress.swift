import Foundation

/// How far one direction of a transfer (the upload of the request body, or the download of the
/// response body) has come.
///
/// Reported by ``DataRequest/uploadProgress(every:queue:_:)``,
/// ``DataRequest/downloadProgress(every:queue:_:)`` and their async sequences: `completedBytes`
/// never decreases, and the last value has ``isFinished`` set.
public struct TransferProgress: Sendable, Equatable, CustomStringConvertible {
    /// Bytes moved so far. For a download, body bytes after decompression; for a resumed
    /// download, including the bytes already on disk.
    public var completedBytes: Int64
    /// The expected total, when known (from `Content-Length`, or the upload body's size); the
    /// final value of a successful transfer always has it.
    public var totalBytes: Int64?
    /// True for the last value, sent when the request completes (successfully or not).
    public var isFinished: Bool

    /// Creates a progress value.
    package init(completedBytes: Int64, totalBytes: Int64?, isFinished: Bool = false) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
        self.isFinished = isFinished
    }

    /// `completedBytes / totalBytes` between 0 and 1, or nil while the total is unknown.
    public var fractionCompleted: Double? {
        guard let totalBytes else { return nil }
        guard totalBytes > 0 else { return isFinished ? 1 : 0 }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }

    /// For example `1048576/4194304 bytes (25%)`.
    public var description: String {
        let total = totalBytes.map(String.init) ?? "?"
        let percent = fractionCompleted.map { " (\(Int(($0 * 100).rounded(.down)))%)" } ?? ""
        return "\(completedBytes)/\(total) bytes\(percent)\(isFinished ? ", finished" : "")"
    }
}

/// Which way the bytes of a ``TransferProgress`` flow.
package enum TransferDirection: Sendable {
    case upload, download
}
