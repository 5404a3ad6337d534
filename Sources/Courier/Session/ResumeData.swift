import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a failed or cancelled ``Session/download(_:to:)`` needs to continue where it stopped:
/// the partial file (kept on disk), how many bytes of it to keep, and the validator that proves
/// the server still has the same content.
///
/// ```swift
/// let response = await session.download(FilesAPI.archive(id), to: file).validate().response()
/// if let resumeData = response.resumeData {            // cut off, timed out or cancelled
///     let resumed = await session.download(FilesAPI.archive(id), resumingWith: resumeData).validate().response()
/// }
/// ```
/// A download has resume data when it stopped on a cancellation, a timeout, or a connection that
/// broke or could not be made, after some of the body was written, and the response had a validator: a strong
/// `ETag`, or else `Last-Modified`. A body the server compressed on the fly (`Content-Encoding`)
/// cannot be resumed. `Codable`, so it can be saved and the download continued by a later run.
public struct ResumeData: Sendable, Codable, Equatable {
    /// Where the bytes came from (after redirects).
    public let url: URL
    /// The partial file; ``Session/download(_:resumingWith:)`` continues it in place. For a
    /// download you will not resume, delete it: `try FileManager.default.removeItem(at: fileURL)`.
    public let fileURL: URL
    /// The bytes at the start of the file that are known good.
    public let bytesWritten: Int64
    /// The `ETag` (strong) or `Last-Modified` value of the response, sent as `If-Range`.
    package let validator: String
    /// The size of the whole body, when the server said.
    public let totalBytes: Int64?

    /// Creates resume data; normally Courier makes it for you.
    package init(url: URL, fileURL: URL, bytesWritten: Int64, validator: String, totalBytes: Int64?) {
        self.url = url
        self.fileURL = fileURL
        self.bytesWritten = bytesWritten
        self.validator = validator
        self.totalBytes = totalBytes
    }

    /// The validator to send as `If-Range`: a strong `ETag`, else `Last-Modified`, from `fields`.
    /// A weak tag (`W/"…"`) cannot be used (RFC 9110 §13.1.5).
    static func validator(in fields: some HeaderFieldReading) -> String? {
        func value(_ name: String) -> String? {
            fields.last(named: name).flatMap { $0.isEmpty ? nil : $0 }
        }
        if let etag = value("ETag"), !etag.hasPrefix("W/") { return etag }
        return value("Last-Modified")
    }

    /// Whether a download that ended with `error` is worth continuing: the connection or the
    /// caller stopped it, not the server's content or the local disk.
    static func isResumable(after error: CourierError) -> Bool {
        switch error {
        case .cancelled, .timedOut, .truncatedResponse, .transport, .cannotConnect, .dnsFailure:
            return true
        default:
            return false
        }
    }
}

extension Session {
    /// Continues a download that failed or was cancelled: the partial file at
    /// `resumeData.fileURL` keeps its first `bytesWritten` bytes and the rest is requested with
    /// `Range: bytes=<bytesWritten>-` and `If-Range: <validator>`.
    ///
    /// - A `206 Partial Content` starting at that offset is appended to the file.
    /// - A `200` (the server ignores ranges, or the content changed so `If-Range` did not match)
    ///   replaces the file with the whole new body.
    /// - A `206` starting elsewhere fails with ``CourierError/protocolViolation``.
    ///
    /// If the partial file is gone or shorter than `bytesWritten`, the whole body is downloaded
    /// again. The response body is never decompressed on the fly (no `Accept-Encoding` is sent),
    /// since ranges count the bytes as stored. Everything else is as for ``download(_:to:)``,
    /// including new resume data if this attempt fails too.
    public func download(_ convertible: any URLRequestConvertible, resumingWith resumeData: ResumeData) -> DataRequest {
        let file = resumeData.fileURL
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? -1
        let offset = resumeData.bytesWritten > 0 && size >= resumeData.bytesWritten ? resumeData.bytesWritten : nil
        let built = build(convertible).flatMap { request -> Result<HTTPRequest, CourierError> in
            guard let offset else { return .success(request) }
            var request = request
            request.headers.update(name: "Range", value: "bytes=\(offset)-")
            request.headers.update(name: "If-Range", value: resumeData.validator)
            do throws(CourierError) {
                try request.headers.validated()
            } catch {
                return .failure(error)
            }
            return .success(request)
        }
        guard file.isFileURL else {
            return DataRequest(
                session: self, target: convertible,
                request: .failure(
                    .invalidRequest(
                        reason: "download destination must be a file URL, got \(file.absoluteString)")),
                destination: nil)
        }
        return DataRequest(session: self, target: convertible, request: built, destination: file, resumeOffset: offset)
    }
}
