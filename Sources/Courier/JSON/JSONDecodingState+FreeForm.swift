import Foundation

/// ``JSONValue`` read straight from the tape.
///
/// Through the `Decoder` interface, `JSONValue.init(from:)` cannot ask what a value is: it tries
/// each kind in turn, and every kind it tries first fails with an error built for nothing (an
/// object takes five). Decoding a 193 KB document that way took about 100 times as long as
/// decoding it into its models (Benchmarks/EXPERIMENTS.md, "JSON decoding"). Here the entry's
/// kind says which case it is, with the same results as that generic path under every strategy.
/// The scanner bounds the nesting (``JSONScanner/maximumDepth``), so the recursion is bounded.
extension JSONDecodingState {
    func jsonValue(_ index: UInt32) throws(JSONReadFailure) -> JSONValue {
        let entry = entry(index)
        switch entry.kind {
        case .null:
            return .null
        case .true:
            return .bool(true)
        case .false:
            return .bool(false)
        case .number:
            // As the generic path: `Int` first, which takes any number that is exactly one. Asked
            // without `readInteger`, whose failure builds an error that locates the number in
            // the document (a scan from its start, for every number that is not whole).
            if let whole = JSONNumbers.integer(
                input.base + Int(entry.start), Int(entry.length), plain: entry.has(JSONEntry.Flags.plainInteger),
                as: Int.self)
            {
                return .integer(whole)
            }
            return .number(try readDouble(index))
        case .string:
            // A `convertFromString` strategy lets `Double` read its strings, and the generic
            // path tries `Double` before `String`.
            if case .convertFromString = floatStrategy, let number = try? readDouble(index) { return .number(number) }
            return .string(try readString(index))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(entry.length))
            var element = index + 1
            while element < entry.next {
                elements.append(try jsonValue(element))
                element = self.entry(element).next
            }
            return .array(elements)
        case .object:
            // As `[String: JSONValue]` is decoded: keys as written, the first of duplicate keys
            // kept (with a key strategy, the later ones are still decoded, as Foundation does).
            var members = [String: JSONValue](minimumCapacity: Int(entry.length))
            var member = index + 1
            while member < entry.next {
                let valueIndex = member + 1
                let name: String
                do {
                    name = try string(member)
                } catch {
                    throw .syntax(error)
                }
                if members[name] == nil {
                    members[name] = try jsonValue(valueIndex)
                } else if !usesDefaultKeys {
                    _ = try jsonValue(valueIndex)
                }
                member = self.entry(valueIndex).next
            }
            return .object(members)
        }
    }
}
