import Foundation

/// How the ``NetworkLogger`` prints a body: JSON pretty-printed, forms and text as they are,
/// secrets redacted, long bodies truncated, binary ones summarised.
enum LogBody {
    /// Bodies larger than this are summarised rather than parsed.
    static let largestParsed = 1 << 20

    /// The printable form of `data`, or nil for an empty body.
    static func render(_ data: Data?, contentType: String?, redactor: Redactor, limit: Int) -> String? {
        guard let data, !data.isEmpty else { return nil }
        let type = contentType?.lowercased() ?? ""
        if isBinary(type) || data.count > largestParsed {
            return summary(data, type: contentType)
        }
        guard let text = String(data: data, encoding: .utf8) else { return summary(data, type: contentType) }
        let shown: String
        if type.contains("json") || text.first == "{" || text.first == "[" {
            shown = prettyJSON(data, redactor: redactor) ?? redactor.text(text)
        } else if type.contains("x-www-form-urlencoded") {
            shown = redactor.form(text)
        } else {
            shown = redactor.text(text)
        }
        return truncated(shown, limit: limit, total: data.count)
    }

    private static func isBinary(_ type: String) -> Bool {
        [
            "image/", "audio/", "video/", "font/", "application/octet-stream", "application/zip", "application/gzip",
            "application/pdf", "multipart/"
        ].contains { type.hasPrefix($0) }
    }

    private static func summary(_ data: Data, type: String?) -> String {
        "<\(data.count) bytes of binary data\(type.map { ", " + $0 } ?? "")>"
    }

    private static func prettyJSON(_ data: Data, redactor: Redactor) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
            let pretty = try? JSONSerialization.data(
                withJSONObject: redactor.json(object),
                options: [
                    .prettyPrinted, .sortedKeys, .fragmentsAllowed,
                    .withoutEscapingSlashes
                ])
        else { return nil }
        return String(data: pretty, encoding: .utf8)
    }

    private static func truncated(_ text: String, limit: Int, total: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (truncated; \(total) bytes in all)"
    }
}
