import Foundation

/// Why a value could not be read; turned into an error once the coding path is known, so the
/// path is built only on failure. `@unchecked Sendable` holds: every payload is an immutable
/// value (a metatype, a `JSONEntry` of plain integers, a string, a syntax error); only `Any.Type`
/// keeps the compiler from seeing that.
enum JSONReadFailure: Error, @unchecked Sendable {
    /// The value is of another kind.
    case mismatch(Any.Type, found: JSONEntry)
    /// The value is null.
    case null(Any.Type)
    /// The value is of the right kind but unusable (`dataCorrupted` at the value's path).
    case corrupted(String)
    /// Malformed content or an unrepresentable number (reported at the top level).
    case syntax(JSONSyntaxError)

    /// The error to throw for a value at `path`.
    func error(at path: @autoclosure () -> [any CodingKey]) -> any Error {
        switch self {
        case .mismatch(let type, let found):
            return DecodingError.typeMismatch(
                type,
                DecodingError.Context(
                    codingPath: path(),
                    debugDescription: "Expected to decode \(type) but found \(found.debugName) instead."))
        case .null(let type):
            return DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: path(), debugDescription: "Expected \(type) value but found null instead."))
        case .corrupted(let message):
            return DecodingError.dataCorrupted(DecodingError.Context(codingPath: path(), debugDescription: message))
        case .syntax(let error):
            return error
        }
    }
}

/// Reading scalars out of tape entries, with Foundation's rules for each type.
extension JSONDecodingState {
    @inline(__always)
    func readBool(_ index: UInt32) throws(JSONReadFailure) -> Bool {
        let entry = entry(index)
        switch entry.kind {
        case .true: return true
        case .false: return false
        default: throw .mismatch(Bool.self, found: entry)  // null too, as in Foundation
        }
    }

    @inline(__always)
    func readString(_ index: UInt32) throws(JSONReadFailure) -> String {
        let entry = entry(index)
        guard entry.kind == .string else { throw mismatchOrNull(String.self, entry) }
        do {
            return try string(index)
        } catch {
            throw .syntax(error)
        }
    }

    @inline(__always)
    func readInteger<T: FixedWidthInteger>(_ index: UInt32, as type: T.Type) throws(JSONReadFailure) -> T {
        let entry = entry(index)
        guard entry.kind == .number else { throw mismatchOrNull(T.self, entry) }
        let bytes = input.base + Int(entry.start)
        guard
            let value = JSONNumbers.integer(
                bytes, Int(entry.length), plain: entry.has(JSONEntry.Flags.plainInteger), as: T.self)
        else {
            throw .syntax(unrepresentable(entry, T.self))
        }
        return value
    }

    @inline(__always)
    func readDouble(_ index: UInt32) throws(JSONReadFailure) -> Double {
        try readFloatingPoint(index, JSONNumbers.double)
    }

    @inline(__always)
    func readFloat(_ index: UInt32) throws(JSONReadFailure) -> Float {
        try readFloatingPoint(index, JSONNumbers.float)
    }

    @inline(__always)
    private func readFloatingPoint<T: BinaryFloatingPoint>(
        _ index: UInt32, _ parse: (UnsafePointer<UInt8>, Int) -> T?
    ) throws(JSONReadFailure) -> T {
        let entry = entry(index)
        if entry.kind == .number {
            guard let value = parse(input.base + Int(entry.start), Int(entry.length)) else {
                throw .syntax(unrepresentable(entry, T.self))
            }
            return value
        }
        return try nonConformingFloat(entry, as: T.self)
    }

    /// A string standing for infinity or NaN under `.convertFromString`; it must match without
    /// escapes, as in Foundation.
    private func nonConformingFloat<T: BinaryFloatingPoint>(
        _ entry: JSONEntry, as type: T.Type
    ) throws(JSONReadFailure) -> T {
        if entry.kind == .string, !entry.has(JSONEntry.Flags.escaped),
            case .convertFromString(let positiveInfinity, let negativeInfinity, let nan) = floatStrategy
        {
            let raw = bytes(entry)
            func matches(_ text: String) -> Bool {
                var text = text
                return text.withUTF8 { JSONKeyMatching.equal($0, raw) }
            }
            if matches(positiveInfinity) { return T.infinity }
            if matches(negativeInfinity) { return -T.infinity }
            if matches(nan) { return T.nan }
        }
        throw mismatchOrNull(T.self, entry)
    }

    func readDecimal(_ index: UInt32) throws(JSONReadFailure) -> Decimal {
        let entry = entry(index)
        guard entry.kind != .null else { throw .null(Decimal.self) }
        guard entry.kind == .number else { throw .mismatch(Decimal.self, found: entry) }
        guard let value = JSONNumbers.decimal(input.base + Int(entry.start), Int(entry.length)) else {
            throw .syntax(unrepresentable(entry, Decimal.self))
        }
        return value
    }

    /// `valueNotFound` for null, `typeMismatch` for any other kind.
    @inline(__always)
    func mismatchOrNull(_ type: Any.Type, _ entry: JSONEntry) -> JSONReadFailure {
        entry.kind == .null ? .null(type) : .mismatch(type, found: entry)
    }

    private func unrepresentable(_ entry: JSONEntry, _ type: Any.Type) -> JSONSyntaxError {
        let text = String(decoding: bytes(entry), as: UTF8.self)
        let problem =
            JSONNumbers.parse(input.base + Int(entry.start), Int(entry.length)) == nil
            ? "Invalid number '\(text)'" : "Number \(text) is not representable as \(type)"
        return JSONSyntaxError(problem, at: Int(entry.start), in: input)
    }
}

/// The types read straight from one tape entry (the primitive types of the container
/// protocols). Containers call `read` through generics specialized at compile time, so no
/// closure or existential sits on the hot path.
protocol JSONScalar {
    static func read(_ state: JSONDecodingState, _ index: UInt32) throws(JSONReadFailure) -> Self
}

extension Bool: JSONScalar {
    @inline(__always) static func read(_ state: JSONDecodingState, _ index: UInt32) throws(JSONReadFailure) -> Bool {
        try state.readBool(index)
    }
}

extension String: JSONScalar {
    @inline(__always) static func read(_ state: JSONDecodingState, _ index: UInt32) throws(JSONReadFailure) -> String {
        try state.readString(index)
    }
}

extension Double: JSONScalar {
    @inline(__always) static func read(_ state: JSONDecodingState, _ index: UInt32) throws(JSONReadFailure) -> Double {
        try state.readDouble(index)
    }
}

extension Float: JSONScalar {
    @inline(__always) static func read(_ state: JSONDecodingState, _ index: UInt32) throws(JSONReadFailure) -> Float {
        try state.readFloat(index)
    }
}

/// Integers of every width read the same way.
protocol JSONInteger: JSONScalar, FixedWidthInteger {}

extension JSONInteger {
    @inline(__always) static func read(_ state: JSONDecodingState, _ index: UInt32) throws(JSONReadFailure) -> Self {
        try state.readInteger(index, as: Self.self)
    }
}

extension Int: JSONInteger {}
extension Int8: JSONInteger {}
extension Int16: JSONInteger {}
extension Int32: JSONInteger {}
extension Int64: JSONInteger {}
extension Int128: JSONInteger {}
extension UInt: JSONInteger {}
extension UInt8: JSONInteger {}
extension UInt16: JSONInteger {}
extension UInt32: JSONInteger {}
extension UInt64: JSONInteger {}
extension UInt128: JSONInteger {}
