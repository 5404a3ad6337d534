import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DataRequest {
    /// The request as a `curl` command line, for logs and bug reports. It follows the session's
    /// ``SecurityPolicy``, as the ``NetworkLogger`` does: the values of secret headers
    /// (`Authorization`, `Cookie` and the others it names) and of secret keys in the URL's query
    /// and in a JSON or form body (`"password": …`, `api_key=…`) are replaced by `<redacted>`,
    /// as is a password in the URL. It shows the request as built, before interceptors and
    /// plugins adapt it; ``NetworkLogger`` logs what was sent.
    public func cURLDescription() -> String {
        guard let request else { return "curl # the request could not be built" }
        return CURLCommand.render(
            request,
            redactor: Redactor(security: session.configuration.security, authorization: .declared(by: target)))
    }
}

/// Renders a request as a shell-safe curl command line.
enum CURLCommand {
    static func render(_ request: HTTPRequest, redactor: Redactor) -> String {
        var parts = ["curl"]
        let method = request.method.rawValue
        if method == "HEAD" {
            parts.append("--head")
        } else if method != "GET" || request.body != .none {
            parts.append("-X \(method)")
        }
        for header in request.headers {
            let shown = redactor.header(name: header.name, value: header.value)
            parts.append("-H " + quote("\(header.name): \(shown)"))
        }
        if request.bodyData == nil, let length = request.body.length, length > 0 {
            parts.append("--data-binary '<\(length) bytes read while sending>'")
        } else if request.bodyData == nil, request.body != .none {
            parts.append("--data-binary '<a body read while sending>'")
        }
        if let body = request.bodyData, !body.isEmpty {
            if let text = String(data: body, encoding: .utf8) {
                parts.append(
                    "--data-binary " + quote(redactor.body(text, contentType: request.headers["Content-Type"])))
            } else {
                parts.append("--data-binary '<\(body.count) bytes of binary data>'")
            }
        }
        parts.append(quote(redactor.url(request.url)))
        return parts.joined(separator: " \\\n\t")
    }

    /// Single-quotes for POSIX shells.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
