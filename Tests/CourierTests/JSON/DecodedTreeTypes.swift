import Foundation

/// Any JSON value, read through a single value container the way a type that accepts anything
/// would: null, Bool, Int64, Double, String, `[DecodedTree]`, `[String: DecodedTree]`, in that order.
/// A kind mismatch moves on to the next kind; any other failure is reported.
indirect enum DecodedTree: Decodable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([DecodedTree])
    case object([String: DecodedTree])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
            return
        }
        do {
            self = .bool(try container.decode(Bool.self))
            return
        } catch DecodingError.typeMismatch {}
        do {
            self = .integer(try container.decode(Int64.self))
            return
        } catch DecodingError.typeMismatch {
        } catch {
            // A number that is not an Int64: try it as a Double, which reports its own failure.
            self = .double(try container.decode(Double.self))
            return
        }
        do {
            self = .string(try container.decode(String.self))
            return
        } catch DecodingError.typeMismatch {}
        do {
            self = .array(try container.decode([DecodedTree].self))
            return
        } catch let DecodingError.typeMismatch(_, context) where context.codingPath.count == decoder.codingPath.count {}
        self = .object(try container.decode([String: DecodedTree].self))
    }
}

/// Any JSON value, read through keyed and unkeyed containers: `allKeys` (sorted),
/// `decodeNil(forKey:)`, nested containers and element-by-element unkeyed decoding.
indirect enum ContainerTree: Decodable, Sendable {
    case scalar(DecodedTree)
    case array([ContainerTree])
    case object([String: ContainerTree])

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: TestKey.self) {
            var members: [String: ContainerTree] = [:]
            for key in keyed.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                if try keyed.decodeNil(forKey: key) {
                    members[key.stringValue] = .scalar(.null)
                } else if let nested = try? keyed.nestedContainer(keyedBy: TestKey.self, forKey: key) {
                    members[key.stringValue] = try ContainerTree(keyed: nested)
                } else if var nested = try? keyed.nestedUnkeyedContainer(forKey: key) {
                    members[key.stringValue] = try ContainerTree(unkeyed: &nested)
                } else {
                    members[key.stringValue] = .scalar(try keyed.decode(DecodedTree.self, forKey: key))
                }
            }
            self = .object(members)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            self = try ContainerTree(unkeyed: &unkeyed)
        } else {
            self = .scalar(try DecodedTree(from: decoder))
        }
    }

    init(keyed: KeyedDecodingContainer<TestKey>) throws {
        var members: [String: ContainerTree] = [:]
        for key in keyed.allKeys {
            members[key.stringValue] = try keyed.decode(ContainerTree.self, forKey: key)
        }
        self = .object(members)
    }

    init(unkeyed: inout any UnkeyedDecodingContainer) throws {
        var elements: [ContainerTree] = []
        while !unkeyed.isAtEnd {
            if try unkeyed.decodeNil() {
                elements.append(.scalar(.null))
            } else {
                elements.append(try unkeyed.decode(ContainerTree.self))
            }
        }
        self = .array(elements)
    }
}

/// Decodes nothing: only the document's structure is checked.
struct Nothing: Decodable, Sendable {
    init(from decoder: any Decoder) throws {}
}

/// A coding key for any name, for types that read keys they discover.
struct TestKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
