import Foundation

/// A `multipart/form-data` body (RFC 7578) built from text fields, data and files.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Ada", name: "name")
/// form.append(avatarData, name: "avatar", filename: "me.png", mimeType: "image/png")
/// form.append(fileURL: reportURL, name: "report")          // MIME type from the extension
/// case .upload: return .multipart(form)
/// ```
/// A form with file parts is **streamed**: when the request is built each file's size is taken
/// (so the body goes out with an exact `Content-Length`) and the files are read from disk in
/// pieces while the request is sent, whatever their size. A form of in-memory parts only is
/// assembled in memory when the request is built, up to the `memoryThreshold` given to
/// ``init(boundary:memoryThreshold:)`` (64 MiB by default). If a file is missing,
/// unreadable or a directory, building throws ``CourierError/multipartEncodingFailed``.
///
/// The boundary is random by default; pass one to ``init(boundary:memoryThreshold:)`` for reproducible bodies.
/// A request carrying this body always gets `multipart/form-data; boundary=<boundary>` as its
/// `Content-Type`, replacing one set by the caller: without its boundary the server could not
/// split the body. To put a form of in-memory parts in a `URLRequest` of your own,
/// `try RequestParams.multipart(form).apply(to: request)` sets its body and `Content-Type`.
public struct MultipartFormData: Sendable {
    @usableFromInline static let defaultMemoryThreshold = 64 * 1024 * 1024

    /// The boundary between parts (without the leading `--`).
    package let boundary: String
    /// The largest body, in bytes, that ``encode()`` will assemble (streamed forms, those with
    /// file parts, have no limit).
    package var memoryThreshold: Int

    var parts: [Part] = []

    /// Creates an empty form.
    /// - Parameters:
    ///   - boundary: the boundary between parts (without the leading `--`). Default: a fresh
    ///     random one such as `courier.boundary.3f9a0c1e5b7d2a4f`.
    ///   - memoryThreshold: the largest body, in bytes, assembled in memory (streamed forms,
    ///     those with file parts, have no limit). Default: 64 MiB.
    public init(boundary: String = MultipartFormData.randomBoundary(), memoryThreshold: Int = defaultMemoryThreshold) {
        self.boundary = boundary
        self.memoryThreshold = memoryThreshold
    }

    @usableFromInline static func randomBoundary() -> String {
        let random = UInt64.random(in: UInt64.min...UInt64.max)
        let hex = String(random, radix: 16)
        return "courier.boundary." + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The request `Content-Type`: `multipart/form-data; boundary=<boundary>`. A boundary
    /// holding a space or one of `(),/:=?` (allowed in boundaries by RFC 2046, not in an RFC 2045
    /// token) is quoted: `multipart/form-data; boundary="a b:c"`.
    package var contentType: String {
        let isToken = boundary.utf8.allSatisfy { !Self.quotedBoundaryBytes.utf8.contains($0) }
        return isToken ? "multipart/form-data; boundary=\(boundary)" : "multipart/form-data; boundary=\"\(boundary)\""
    }

    /// The boundary characters that are not RFC 2045 token characters.
    private static let quotedBoundaryBytes = "(),/:=? "

    /// The number of parts appended so far.
    package var count: Int { parts.count }

    /// Appends a text field: `form.append("Ada", name: "name")`.
    public mutating func append(_ value: String, name: String) {
        parts.append(Part(name: name, filename: nil, mimeType: nil, source: .data(Data(value.utf8))))
    }

    /// Appends bytes, optionally as a file upload with `filename` and `mimeType`:
    /// `form.append(png, name: "avatar", filename: "me.png", mimeType: "image/png")`.
    /// With a filename and no MIME type, the type is guessed from the filename's extension.
    public mutating func append(_ data: Data, name: String, filename: String? = nil, mimeType: String? = nil) {
        let type = mimeType ?? filename.map(MIMEType.forFilename)
        parts.append(Part(name: name, filename: filename, mimeType: type, source: .data(data)))
    }

    /// Appends a file from disk, read when the body is encoded. `filename` defaults to the
    /// file's last path component and `mimeType` is guessed from its extension
    /// (`application/octet-stream` when unknown).
    public mutating func append(fileURL: URL, name: String, filename: String? = nil, mimeType: String? = nil) {
        let type = mimeType ?? MIMEType.forExtension(fileURL.pathExtension)
        parts.append(
            Part(name: name, filename: filename ?? fileURL.lastPathComponent, mimeType: type, source: .file(fileURL)))
    }

    /// Assembles the body; throws ``CourierError/multipartEncodingFailed`` for an
    /// invalid boundary, an unreadable file or a body larger than its `memoryThreshold`.
    package func encode() throws -> Data {
        try validateBoundary()
        var body = Data()
        for part in parts {
            let payload = try part.payload(remainingBudget: memoryThreshold - body.count)
            body.append(Data("--\(boundary)\r\n".utf8))
            body.append(Data(part.headerBlock().utf8))
            body.append(payload)
            body.append(Data("\r\n".utf8))
            try checkSize(body.count)
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        try checkSize(body.count)
        return body
    }

    private func checkSize(_ size: Int) throws {
        if size > memoryThreshold {
            throw CourierError.multipartEncodingFailed(
                reason: "the body exceeds the in-memory limit of \(memoryThreshold) bytes")
        }
    }

    /// RFC 2046: 1 to 70 of `A-Z a-z 0-9 '()+_,-./:=?` and space, not ending with a space;
    /// `"`, backslash, `;` and control characters are rejected, so quoting never needs escapes.
    func validateBoundary() throws {
        let allowed = "'()+_,-./:=? "
        let valid =
            (1...70).contains(boundary.utf8.count)
            && !boundary.hasSuffix(" ")
            && boundary.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return allowed.utf8.contains(byte)
                }
            }
        if !valid {
            throw CourierError.multipartEncodingFailed(
                reason: "invalid boundary '\(boundary)': use 1 to 70 letters, digits or '()+_,-./:=? characters")
        }
    }
}

extension MultipartFormData {
    /// One body part.
    struct Part: Sendable {
        enum Source: Sendable {
            case data(Data)
            case file(URL)
        }

        let name: String
        let filename: String?
        let mimeType: String?
        let source: Source

        /// `Content-Disposition` (and `Content-Type`) lines followed by the blank line.
        func headerBlock() -> String {
            var disposition = "Content-Disposition: form-data; name=\"\(Self.quoted(name))\""
            if let filename {
                disposition += "; filename=\"\(Self.quoted(filename))\""
            }
            var block = disposition + "\r\n"
            if let mimeType {
                block += "Content-Type: \(Self.singleLine(mimeType))\r\n"
            }
            return block + "\r\n"
        }

        /// The part's bytes; a file is size-checked against `remainingBudget` before it is read.
        func payload(remainingBudget: Int) throws -> Data {
            switch source {
            case .data(let data):
                return data
            case .file(let url):
                guard url.isFileURL else {
                    throw CourierError.multipartEncodingFailed(reason: "'\(url.absoluteString)' is not a file URL")
                }
                let attributes: [FileAttributeKey: Any]
                do {
                    attributes = try FileManager.default.attributesOfItem(atPath: url.path)
                } catch {
                    throw CourierError.multipartEncodingFailed(
                        reason: "cannot read file '\(url.path)': it does not exist or is not accessible")
                }
                if (attributes[.type] as? FileAttributeType) == .typeDirectory {
                    throw CourierError.multipartEncodingFailed(reason: "'\(url.path)' is a directory, not a file")
                }
                if let size = Self.fileSize(attributes[.size]), size > remainingBudget {
                    throw CourierError.multipartEncodingFailed(
                        reason: "file '\(url.path)' (\(size) bytes) does not fit in the in-memory limit")
                }
                do {
                    return try Data(contentsOf: url)
                } catch {
                    throw CourierError.multipartEncodingFailed(reason: "cannot read file '\(url.path)'")
                }
            }
        }

        /// The size attribute as an `Int`, whichever numeric type Foundation stored it as.
        static func fileSize(_ value: Any?) -> Int? {
            switch value {
            case let number as NSNumber: return number.intValue
            case let size as UInt64: return Int(exactly: size)
            case let size as Int: return size
            default: return nil
            }
        }

        /// Escapes `"`, CR and LF in a quoted parameter as `%22`, `%0D`, `%0A` (RFC 7578 §2, HTML).
        static func quoted(_ text: String) -> String {
            // Scalar by scalar: Foundation's replacingOccurrences misses a CR or LF followed by a
            // combining mark, and a quote followed by one forms a different Character.
            var result = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": result.append(contentsOf: "%22".unicodeScalars)
                case "\r": result.append(contentsOf: "%0D".unicodeScalars)
                case "\n": result.append(contentsOf: "%0A".unicodeScalars)
                default: result.append(scalar)
                }
            }
            return String(result)
        }

        /// Drops CR and LF so a header value stays on one line.
        static func singleLine(_ text: String) -> String {
            String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
        }
    }
}
