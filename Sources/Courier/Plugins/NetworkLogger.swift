import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``Plugin`` that logs each request and its response, readable and without secrets.
///
/// ```swift
/// var configuration = Session.Configuration()
/// configuration.plugins = [NetworkLogger(level: .headers)]                // to standard error
/// configuration.plugins = [NetworkLogger(level: .basic) { entry in logger.info("\(entry.message)") }]
/// ```
/// ```text
/// → #7 GET https://api.example.com/home/latest
/// ← #7 200 GET https://api.example.com/home/latest · 12.4 ms · 1.2 KB · HTTP/2 · reused connection
/// ✕ #8 GET https://api.example.com/home/banner · timedOut: Timed out (request timeout) · 10012.0 ms
/// ```
/// Each attempt gets a request line and a response (or failure) line, both written before the
/// caller sees the result. At ``Level/headers`` the headers follow, at ``Level/body`` the bodies:
/// JSON pretty-printed, binary bodies summarised, long ones cut at `maxBodyLength` characters.
///
/// Redaction, in requests and responses alike, follows the session's ``SecurityPolicy``: the values
/// of its secret headers (`Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and the
/// ones you add) print as `<redacted>`; so do the values of its ``SecurityPolicy/secretKeys`` (and
/// of the query parameter an ``AuthorizationType/query(name:)`` endpoint sends its credential in)
/// wherever they appear in a JSON body, a form body, a URL query or a `Location` header, as do body
/// keys named like a secret header (`"authorization": …`); passwords in URLs print as `redacted`.
/// The values of the secret headers a request sent (and, for `Scheme credentials` values, the
/// credentials alone) print as `<redacted>` wherever they appear in that request's lines, such as
/// a body that echoes `["Authorization", "Bearer …"]`; so does the value of a `.query(name:)`
/// credential. Other
/// values the logger cannot recognise as secrets (a token inside a Base64 blob, free prose) are
/// printed as they are.
///
/// At ``Level/off`` the logger is disabled: requests run exactly as without it.
public struct NetworkLogger: Plugin {
    /// How much is logged.
    public enum Level: Sendable {
        /// Nothing; the plugin is not even called.
        case off
        /// One line per request and one per response or failure.
        case basic
        /// The lines of ``basic``, each followed by its headers.
        case headers
        /// The lines of ``headers``, each followed by its body.
        case body

        /// Whether this level logs what `other` logs (levels go from ``off`` to ``body``).
        func includes(_ other: Level) -> Bool { rank >= other.rank }

        private var rank: Int {
            switch self {
            case .off: 0
            case .basic: 1
            case .headers: 2
            case .body: 3
            }
        }
    }

    /// One logged event; its ``message`` is the text.
    public struct Entry: Sendable {
        /// What the entry is about.
        public enum Kind: Sendable, Equatable {
            /// A request about to be sent.
            case request
            /// A response, whatever its status.
            case response
            /// A transfer that ended without a response (or with a transport error).
            case failure
        }

        /// What the entry is about; map ``Kind/failure`` to your logging library's error level.
        public let kind: Kind
        /// The request's ``RequestContext/requestID``, shared by its request and response entries.
        public let requestID: UInt64
        /// The text: one line at ``Level/basic``, more below it at higher levels.
        public let message: String
    }

    /// Writes each entry's message as a line to standard error (the default sink).
    @usableFromInline package static let standardError: @Sendable (Entry) -> Void = { entry in
        FileHandle.standardError.write(Data((entry.message + "\n").utf8))
    }

    /// How much is logged.
    package let level: Level
    /// The most characters of a body that are printed.
    package let maxBodyLength: Int
    private let sink: @Sendable (Entry) -> Void

    /// Creates a logger.
    /// - Parameters:
    ///   - level: how much is logged. Default: ``Level/basic``.
    ///   - maxBodyLength: the most characters of a body printed. Default: 4096.
    ///   - sink: where entries go. Default: each entry's `message` as a line on standard error.
    public init(
        level: Level = .basic, maxBodyLength: Int = 4096,
        sink: @escaping @Sendable (Entry) -> Void = NetworkLogger.standardError
    ) {
        self.level = level
        self.maxBodyLength = max(0, maxBodyLength)
        self.sink = sink
    }

    /// Logs the request line (and its headers and body, by level).
    public func willSend(_ request: URLRequest, context: RequestContext) {
        guard level != .off else { return }
        let redactor = redactor(for: context, sent: request.allHTTPHeaderFields, url: request.url)
        var lines = [
            "→ #\(context.requestID) \(request.httpMethod ?? "GET") \(redactor.url(request.url))"
                + (context.attempt > 0 ? " · attempt \(context.attempt + 1)" : "")
        ]
        if level.includes(.headers) {
            let fields = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
            lines += fields.map { "    \($0.key): \(redactor.header(name: $0.key, value: $0.value))" }
        }
        if level.includes(.body),
            let body = LogBody.render(
                request.httpBody, contentType: request.value(forHTTPHeaderField: "Content-Type"),
                redactor: redactor, limit: maxBodyLength)
        {
            lines.append(Self.indented(body))
        }
        sink(
            Entry(
                kind: .request, requestID: context.requestID,
                message: redactor.scrub(lines.joined(separator: "\n"))))
    }

    /// Logs the response line, or the failure with its kind (and headers and body, by level).
    public func didReceive(_ response: DataResponse<Data?>, context: RequestContext) {
        guard level != .off else { return }
        let redactor = redactor(for: context, sent: response.request?.headers.dictionary, url: response.request?.url)
        let target = "\(response.request?.method.rawValue ?? "GET") \(redactor.url(response.request?.url))"
        var facts: [String] = []
        if let error = response.error {
            facts.append("\(error.kind): \(redactor.text(error.description))")
        }
        if let metrics = response.metrics {
            facts.append(Self.oneDecimal((metrics.total + metrics.redirectTime) * 1000) + " ms")
        }
        if response.error == nil {
            facts.append(response.fileURL != nil ? "saved to a file" : Self.size(response.data?.count ?? 0))
        }
        if let metrics = response.metrics, response.statusCode != nil {
            facts.append(metrics.httpVersion?.rawValue ?? "HTTP version unknown")
            facts.append(metrics.connectionReused ? "reused connection" : "new connection")
            if metrics.redirectCount > 0 {
                facts.append("after \(metrics.redirectCount) redirect\(metrics.redirectCount == 1 ? "" : "s")")
            }
        }
        if context.attempt > 0 { facts.append("attempt \(context.attempt + 1)") }
        let failed = response.error != nil
        let status = response.statusCode.map { "\($0) " } ?? ""
        var lines = [
            (failed ? "✕" : "←") + " #\(context.requestID) \(status)\(target) · " + facts.joined(separator: " · ")
        ]
        if level.includes(.headers) {
            lines += response.headers.map { "    \($0.name): \(redactor.header(name: $0.name, value: $0.value))" }
        }
        if level.includes(.body),
            let body = LogBody.render(
                response.data, contentType: response.headers["Content-Type"],
                redactor: redactor, limit: maxBodyLength)
        {
            lines.append(Self.indented(body))
        }
        sink(
            Entry(
                kind: failed ? .failure : .response, requestID: context.requestID,
                message: redactor.scrub(lines.joined(separator: "\n"))))
    }

    /// The redactor for one request's lines: it also hides the secret header values `request` sent.
    private func redactor(for context: RequestContext, sent headers: [String: String]?, url: URL?) -> Redactor {
        Redactor(
            security: context.session.configuration.security, authorization: .declared(by: context.target),
            sentHeaders: headers ?? [:], sentURL: url)
    }

    private static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }

    private static func size(_ bytes: Int) -> String {
        switch bytes {
        case ..<1024: return "\(bytes) B"
        case ..<(1 << 20): return oneDecimal(Double(bytes) / 1024) + " KB"
        default: return oneDecimal(Double(bytes) / Double(1 << 20)) + " MB"
        }
    }

    /// `value` rounded to one decimal, without Foundation's formatter.
    static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite, value >= 0 else { return "0.0" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension NetworkLogger {
    /// Whether `plugin` acts at all; a ``NetworkLogger`` at ``NetworkLogger/Level/off`` does not,
    /// and is left out where plugins are registered, so it costs nothing.
    static func takesPart(_ plugin: any Plugin) -> Bool {
        (plugin as? NetworkLogger)?.level != .off
    }
}
