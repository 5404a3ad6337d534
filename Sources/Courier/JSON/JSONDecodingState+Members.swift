import Foundation

/// Finding an object's members by key under the key decoding strategy. Objects are scanned in
/// document order and the first match wins, as in Foundation; plain ASCII keys are compared as
/// bytes (an 8-byte word first), anything else as Swift `String`s.
extension JSONDecodingState {
    /// Checks what Foundation checks when it opens an object: every key must be a valid string.
    /// With the custom key strategy, records the converted key of each member for lookups.
    func prepareKeys(of object: UInt32, node: UInt32) throws(JSONSyntaxError) {
        let container = entry(object)
        if container.has(JSONEntry.Flags.complexKeys) {
            var member = object + 1
            while member < container.next {
                if !entry(member).isPlainASCIIString { _ = try string(member) }
                member = entry(member + 1).next
            }
        }
        guard case .custom(let convert) = keyStrategy else { return }
        var converted: [String] = []
        converted.reserveCapacity(Int(container.length))
        let base = codingPath(node: node, value: object)
        var member = object + 1
        while member < container.next {
            converted.append(convert(base + [JSONKey(stringValue: try string(member))]).stringValue)
            member = entry(member + 1).next
        }
        work.pointee.customKeys[object] = converted
    }

    /// The tape index of the value of the first member named `name`, or nil.
    @inline(__always)
    func member(named name: String, in object: UInt32) -> UInt32? {
        if usesDefaultKeys && !entry(object).has(JSONEntry.Flags.complexKeys) {
            var source = name
            if let found = source.withUTF8({ plainMember($0, in: object) }) {
                return found == 0 ? nil : found
            }
        }
        return memberSlowPath(named: name, in: object)
    }

    @inline(never)
    private func memberSlowPath(named name: String, in object: UInt32) -> UInt32? {
        if let converted = work.pointee.customKeys[object] {
            var member = object + 1
            var position = 0
            let end = entry(object).next
            while member < end {
                if converted[position] == name { return member + 1 }
                member = entry(member + 1).next
                position += 1
            }
            return nil
        }
        var source = name
        return source.withUTF8 { query in
            let asciiQuery = JSONKeyMatching.isASCII(query)
            if usesDefaultKeys { return stringMember(name, in: object, snakeCase: false) }
            return asciiQuery
                ? snakeCaseMember(query, name, in: object) : stringMember(name, in: object, snakeCase: true)
        }
    }

    /// Default keys: the hot path of every synthesized `init(from:)`. Returns the value's
    /// index, 0 when no member matches, or nil when the query or a key needs comparing as a
    /// `String` (non-ASCII query, escaped or non-ASCII keys).
    @inline(__always)
    private func plainMember(_ query: UnsafeBufferPointer<UInt8>, in object: UInt32) -> UInt32? {
        let count = query.count
        let base = query.baseAddress
        var word: UInt64 = 0
        var high: UInt64 = 0
        if count >= 8 {
            word = UnsafeRawPointer(base!).loadUnaligned(as: UInt64.self)
            var i = 8
            high = word
            while i + 8 <= count {
                high |= UnsafeRawPointer(base! + i).loadUnaligned(as: UInt64.self)
                i += 8
            }
            while i < count {
                high |= UInt64(base![i])
                i += 1
            }
        } else {
            for k in 0..<count { word |= UInt64(base![k]) << UInt64(k &* 8) }
            high = word
        }
        guard high & 0x8080_8080_8080_8080 == 0 else { return nil }
        let mask: UInt64 = count >= 8 ? ~0 : (1 << UInt64(count &* 8)) &- 1
        let length = UInt32(count)
        let container = entry(object)
        var member = object + 1
        while member < container.next {
            let key = tape[Int(member)]
            if key.length == length {
                let p = input.base + Int(key.start)
                if UnsafeRawPointer(p).loadUnaligned(as: UInt64.self) & mask == word
                    && (length <= 8 || memcmp(p + 8, base! + 8, count &- 8) == 0)
                {
                    return member + 1
                }
            }
            member = tape[Int(member) + 1].next
        }
        return 0
    }

    private func snakeCaseMember(_ query: UnsafeBufferPointer<UInt8>, _ name: String, in object: UInt32) -> UInt32? {
        let container = entry(object)
        var member = object + 1
        while member < container.next {
            let key = entry(member)
            if key.isPlainASCIIString {
                let raw = bytes(key)
                if JSONKeyMatching.snakeCaseMatches(raw: raw, query: query)
                    ?? (JSONKeyMatching.fromSnakeCase(String(decoding: raw, as: UTF8.self)) == name)
                {
                    return member + 1
                }
            } else if let text = try? string(member), JSONKeyMatching.fromSnakeCase(text) == name {
                return member + 1
            }
            member = entry(member + 1).next
        }
        return nil
    }

    /// Every key compared as a `String` (the query is not ASCII).
    private func stringMember(_ name: String, in object: UInt32, snakeCase: Bool) -> UInt32? {
        let container = entry(object)
        var member = object + 1
        while member < container.next {
            if let text = try? string(member), (snakeCase ? JSONKeyMatching.fromSnakeCase(text) : text) == name {
                return member + 1
            }
            member = entry(member + 1).next
        }
        return nil
    }

    /// The object's keys as the strategy presents them, each once (first occurrence), in
    /// document order.
    func keyNames(in object: UInt32) -> [String] {
        let converted = work.pointee.customKeys[object]
        let container = entry(object)
        var names: [String] = []
        names.reserveCapacity(Int(container.length))
        var seen = Set<String>()
        var member = object + 1
        var position = 0
        while member < container.next {
            let name: String
            if let converted {
                name = converted[position]
            } else {
                let text = (try? string(member)) ?? ""
                name = usesDefaultKeys ? text : JSONKeyMatching.fromSnakeCase(text)
            }
            if seen.insert(name).inserted { names.append(name) }
            member = entry(member + 1).next
            position += 1
        }
        return names
    }
}
