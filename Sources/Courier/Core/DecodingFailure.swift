import Foundation

extension CourierError {
    /// Turns any decoding error into ``CourierError/decodingFailed`` with a readable
    /// path such as `result.items[3].title` and a reason such as `expected String, found null`.
    package static func decoding(_ error: any Error) -> CourierError {
        if let error = error as? CourierError { return error }
        guard let error = error as? DecodingError else {
            return .decodingFailed(path: "", reason: String(describing: error))
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .decodingFailed(
                path: codingPath(context.codingPath + [key]), reason: "missing key '\(key.stringValue)'")
        case .valueNotFound(let type, let context):
            return .decodingFailed(path: codingPath(context.codingPath), reason: "expected \(type), found null")
        case .typeMismatch(let type, let context):
            return .decodingFailed(
                path: codingPath(context.codingPath),
                reason: "expected \(type), found \(found(in: context.debugDescription))")
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.localizedDescription
            let reason =
                context.codingPath.isEmpty
                ? "the data is not valid JSON" + (underlying.map { " (\($0))" } ?? "")
                : context.debugDescription
            return .decodingFailed(path: codingPath(context.codingPath), reason: reason)
        @unknown default:
            return .decodingFailed(path: "", reason: String(describing: error))
        }
    }

    /// `[a, items, 3, title]` → `a.items[3].title`.
    static func codingPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    /// Pulls "null" out of "Expected to decode String but found null instead.", when present.
    private static func found(in description: String) -> String {
        guard let start = description.range(of: "but found ") else { return "another type" }
        var rest = description[start.upperBound...]
        if let end = rest.range(of: " instead") { rest = rest[..<end.lowerBound] }
        let text = rest.trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        return text.isEmpty ? "another type" : text
    }
}
