import Foundation

/// Lenient readers for envelope metadata (codes, messages, flags, statuses). Servers send these
/// in more than one type (`"code": 2001` or `"code": "COMMON200"`, `"success": "true"`), and none
/// of them is worth failing a body whose payload decodes: a field of an unexpected type reads
/// as nil (or as its text), never as an error.
extension KeyedDecodingContainer {
    /// A string, or a number's text (`2001` → `"2001"`); nil for anything else.
    func lenientText(forKey key: Key) -> String? {
        if let text = try? decodeIfPresent(String.self, forKey: key) { return text }
        if let number = try? decodeIfPresent(Int.self, forKey: key) { return String(number) }
        if let number = try? decodeIfPresent(Double.self, forKey: key) { return String(number) }
        return nil
    }

    /// An integer, a whole double, or a string holding an integer (`"200"`); nil otherwise.
    func lenientInt(forKey key: Key) -> Int? {
        if let number = try? decodeIfPresent(Int.self, forKey: key) { return number }
        if let number = try? decodeIfPresent(Double.self, forKey: key) { return Int(exactly: number) }
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return nil
    }

    /// A boolean, `0`/`1`, or `"true"`/`"false"`/`"1"`/`"0"` in any case; nil otherwise.
    func lenientBool(forKey key: Key) -> Bool? {
        if let flag = try? decodeIfPresent(Bool.self, forKey: key) { return flag }
        if let number = try? decodeIfPresent(Int.self, forKey: key) {
            return number == 1 ? true : number == 0 ? false : nil
        }
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            switch text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() {
            case "true", "1": return true
            case "false", "0": return false
            default: return nil
            }
        }
        return nil
    }
}
