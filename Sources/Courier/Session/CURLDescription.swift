import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DataRequest {
    /// The request as a `curl` command line, for logs and bug reports. Values of the secret
    /// headers of the session's ``SecurityPolicy`` (`Authorization`, `Cookie` and the others it
    /// names) are replaced by `<redacted>`, as is a password in the URL. It shows the request as
    /// built, before interceptors and plugins adapt it; ``NetworkLogger`` logs what was sent.
    public func cURLDescription() -> String {
        guard let request else { return "curl # the request could not be built" }
        return CURLCommand.render(request, security: session.configuration.security)
    }
}

/// Renders a request as a shell-safe curl command line.
enum CURLCommand {
    static func render(_ request: HTTPRequest, security: SecurityPolicy) -> String {
        var parts = ["curl"]
        let method = request.method.rawValue
        if method == "HEAD" {
            parts.append("--head")
        } else if method != "GET" || request.body != .none {
            parts.append("-X \(method)")
        }
        for header in request.headers {
            let shown = security.printable(header: header.name, value: header.value)
            parts.append("-H " + quote("\(header.name): \(shown)"))
        }
        if request.bodyData == nil, let length = request.body.length, length > 0 {
            parts.append("--data-binary '<\(length) bytes read while sending>'")
        } else if request.bodyData == nil, request.body != .none {
            parts.append("--data-binary '<a body read while sending>'")
        }
        if let body = request.bodyData, !body.isEmpty {
            if let text = String(data: body, encoding: .utf8) {
                parts.append("--data-binary " + quote(text))
            } else {
                parts.append("--data-binary '<\(body.count) bytes of binary data>'")
            }
        }
        parts.append(quote(redactedURL(request.url)))
        return parts.joined(separator: " \\\n\t")
    }

    private static func redactedURL(_ url: URL?) -> String {
        guard let url else { return "" }
        guard url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.password = "redacted"
        return components.string ?? url.absoluteString
    }

    /// Single-quotes for POSIX shells.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
