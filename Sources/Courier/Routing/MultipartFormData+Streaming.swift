import Foundation

extension MultipartFormData {
    /// True when a part is a file on disk: such forms are streamed rather than assembled.
    var hasFileParts: Bool {
        parts.contains { if case .file = $0.source { return true } else { return false } }
    }

    /// The body as pieces read while sending: delimiters and part headers in memory, files from
    /// disk. Each file's size is taken now, so the total length is exact when all are regular
    /// files. Throws ``CourierError/multipartEncodingFailed`` for a bad boundary or a
    /// missing, unreadable or directory file.
    func streamedBody() throws -> UploadSegments {
        try validateBoundary()
        var segments: [UploadSegments.Segment] = []
        var pending = Data()
        for part in parts {
            pending.append(Data("--\(boundary)\r\n".utf8))
            pending.append(Data(part.headerBlock().utf8))
            switch part.source {
            case .data(let data):
                pending.append(data)
            case .file(let url):
                let length: Int64?
                do {
                    length = try UploadSegments.probe(url)
                } catch {
                    throw CourierError.multipartEncodingFailed(reason: Self.reason(error))
                }
                segments.append(.bytes(pending))
                pending = Data()
                segments.append(.file(path: url.path, length: length))
            }
            pending.append(Data("\r\n".utf8))
        }
        pending.append(Data("--\(boundary)--\r\n".utf8))
        segments.append(.bytes(pending))
        return UploadSegments(segments)
    }

    private static func reason(_ error: CourierError) -> String {
        error == .invalidRequest ? error.reason ?? error.description : error.description
    }
}
