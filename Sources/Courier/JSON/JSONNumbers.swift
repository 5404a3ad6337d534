import Foundation

/// Turns number tokens (runs of `0-9 . e E + -`) into Swift numbers with the results and
/// failures of Foundation's `JSONDecoder` on Linux:
/// - a token must follow the JSON number grammar;
/// - floating point values are correctly rounded (Float directly, not through Double); a value
///   that overflows to infinity, or underflows to zero from non-zero digits, is an error;
/// - an integer type accepts plain integers in range, and other forms (`1.0`, `1e2`) that are
///   exactly integral as a Double below 2^53, or, above that, through a Decimal reading of the
///   digits (which truncates a fraction, as Foundation does).
/// A nil result means "not representable"; callers turn it into a ``JSONSyntaxError``.
enum JSONNumbers {
    /// The digits of a token: `mantissa × 10^exponent`, with up to 19 significant digits.
    struct Parsed {
        var negative = false
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        /// Non-zero digits beyond the 19 kept in `mantissa`.
        var truncated = false
    }

    /// Reads a token that follows the JSON grammar; nil for anything else.
    static func parse(_ p: UnsafePointer<UInt8>, _ count: Int) -> Parsed? {
        var result = Parsed()
        var i = 0
        @inline(__always) func digit(_ at: Int) -> UInt64? {
            guard at < count else { return nil }
            let d = p[at] &- UInt8(ascii: "0")
            return d < 10 ? UInt64(d) : nil
        }
        @inline(__always) func take(_ d: UInt64, fraction: Bool) {
            if result.mantissa == 0 && d == 0 {
                if fraction { result.exponent -= 1 }
            } else if result.significantDigits < 19 {
                result.mantissa = result.mantissa &* 10 &+ d
                result.significantDigits += 1
                if fraction { result.exponent -= 1 }
            } else {
                if !fraction { result.exponent += 1 }
                if d != 0 { result.truncated = true }
            }
        }
        if count > 0 && p[0] == UInt8(ascii: "-") {
            result.negative = true
            i = 1
        }
        guard let first = digit(i) else { return nil }
        i += 1
        if first != 0 {
            take(first, fraction: false)
            while let d = digit(i) {
                take(d, fraction: false)
                i += 1
            }
        }
        if i < count && p[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) != nil else { return nil }
            while let d = digit(i) {
                take(d, fraction: true)
                i += 1
            }
        }
        if i < count && (p[i] | 0x20) == UInt8(ascii: "e") {
            i += 1
            var negativeExponent = false
            if i < count && (p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-")) {
                negativeExponent = p[i] == UInt8(ascii: "-")
                i += 1
            }
            guard digit(i) != nil else { return nil }
            var written = 0
            while let d = digit(i) {
                if written < 100_000_000 { written = written * 10 + Int(d) }
                i += 1
            }
            result.exponent += negativeExponent ? -written : written
        }
        guard i == count else { return nil }
        return result
    }

    // MARK: Integers

    /// The integer a token denotes, if it fits `T` (see the type's documentation for the rules).
    @inline(__always)
    static func integer<T: FixedWidthInteger>(_ p: UnsafePointer<UInt8>, _ count: Int, plain: Bool, as: T.Type) -> T? {
        if plain, let value: T = plainInteger(p, count) { return value }
        return integerSlowPath(p, count, as: T.self)
    }

    /// `-?[0-9]+` without leading zeros, in range; nil otherwise (including on overflow).
    @inline(__always)
    private static func plainInteger<T: FixedWidthInteger>(_ p: UnsafePointer<UInt8>, _ count: Int) -> T? {
        let negative = p[0] == UInt8(ascii: "-")
        var i = negative ? 1 : 0
        guard i < count else { return nil }
        if p[i] == UInt8(ascii: "0") && count - i > 1 { return nil }
        var value: T = 0
        if negative {
            while i < count {
                let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = shifted.subtractingReportingOverflow(T(p[i] &- UInt8(ascii: "0")))
                if o1 || o2 { return nil }
                value = next
                i += 1
            }
        } else {
            while i < count {
                let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = shifted.addingReportingOverflow(T(p[i] &- UInt8(ascii: "0")))
                if o1 || o2 { return nil }
                value = next
                i += 1
            }
        }
        return value
    }

    @inline(never)
    private static func integerSlowPath<T: FixedWidthInteger>(_ p: UnsafePointer<UInt8>, _ count: Int, as: T.Type) -> T?
    {
        guard parse(p, count) != nil else { return nil }
        // As Foundation: first as a Double, which must be integral and in range.
        let double = rawDouble(p, count)
        guard let value = T(exactly: double) else { return nil }
        if double.magnitude < 9_007_199_254_740_992 { return value }
        // Above 2^53 a Double may have rounded: read the digits as a Decimal would.
        return decimalInteger(p, count, as: T.self)
    }

    /// Foundation's Decimal route for integers above 2^53: the significand (at most 128 bits,
    /// trailing zeros dropped) must fit 64 bits; a negative exponent truncates.
    private static func decimalInteger<T: FixedWidthInteger>(_ p: UnsafePointer<UInt8>, _ count: Int, as: T.Type) -> T?
    {
        var significand: UInt128 = 0
        var exponent = 0
        var negative = false
        var i = 0
        var inFraction = false
        var full = false
        if p[0] == UInt8(ascii: "-") {
            negative = true
            i = 1
        }
        while i < count {
            let c = p[i]
            if c == UInt8(ascii: ".") {
                inFraction = true
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                break
            } else {
                let d = UInt128(c &- UInt8(ascii: "0"))
                let (times10, o1) = significand.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.addingReportingOverflow(d)
                if !full && !o1 && !o2 {
                    significand = next
                    if inFraction { exponent -= 1 }
                } else {
                    full = true
                    if !inFraction { exponent += 1 }
                }
            }
            i += 1
        }
        if i < count {
            exponent += writtenExponent(p + i + 1, count - i - 1)
        }
        while significand != 0 && significand % 10 == 0 {
            significand /= 10
            exponent += 1
        }
        guard significand <= UInt128(UInt64.max) else { return nil }
        var magnitude = UInt64(significand)
        if exponent < 0 {
            magnitude = exponent <= -20 ? 0 : magnitude / power10(-exponent)
        } else if exponent > 0 {
            guard exponent < 20 else { return nil }
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: power10(exponent))
            guard !overflow else { return nil }
            magnitude = product
        }
        guard let value = T(exactly: magnitude) else { return nil }
        if negative {
            guard T.isSigned else { return nil }
            return 0 - value
        }
        return value
    }

    private static func writtenExponent(_ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var i = 0
        var negative = false
        if i < count && (p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-")) {
            negative = p[i] == UInt8(ascii: "-")
            i += 1
        }
        var value = 0
        while i < count {
            if value < 100_000_000 { value = value * 10 + Int(p[i] &- UInt8(ascii: "0")) }
            i += 1
        }
        return negative ? -value : value
    }

    private static func power10(_ n: Int) -> UInt64 {
        var result: UInt64 = 1
        for _ in 0..<n { result &*= 10 }
        return result
    }

    // MARK: Floating point

    /// The correctly rounded Double of a valid token, infinite or zero when out of range.
    static func rawDouble(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double {
        if let parsed = parse(p, count), let fast = fastDouble(parsed) { return fast }
        return Double(String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)) ?? .nan
    }

    /// A Double as Foundation decodes it: nil for invalid tokens, overflow, and underflow to zero.
    static func double(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        guard let parsed = parse(p, count) else { return nil }
        if let fast = fastDouble(parsed) {
            return fast != 0 || zeroAccepted(p, count) ? fast : nil
        }
        guard let value = Double(String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)),
            value.isFinite, value != 0 || zeroAccepted(p, count)
        else { return nil }
        return value
    }

    /// A Float as Foundation decodes it (rounded once, from the decimal digits).
    static func float(_ p: UnsafePointer<UInt8>, _ count: Int) -> Float? {
        guard let parsed = parse(p, count) else { return nil }
        if !parsed.truncated, parsed.mantissa <= 1 << 24, parsed.exponent >= -10, parsed.exponent <= 10 {
            // Both operands are exact in Float, so one operation rounds correctly.
            var value = Float(parsed.mantissa)
            if parsed.exponent < 0 {
                value /= Float(floatPowers[-parsed.exponent])
            } else {
                value *= Float(floatPowers[parsed.exponent])
            }
            value = parsed.negative ? -value : value
            return value != 0 || zeroAccepted(p, count) ? value : nil
        }
        guard let value = Float(String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)),
            value.isFinite, value != 0 || zeroAccepted(p, count)
        else { return nil }
        return value
    }

    /// Whether a token whose value came out as zero may stand for zero. Foundation's check
    /// (meant to refuse numbers that underflowed) looks at the bytes four at a time from the
    /// start and then at the last `count % 4` bytes from the end, and stops at the first
    /// non-zero digit (refused) or `e` (accepted). So `0e5` is refused while `0e0` and `0e-5`
    /// are accepted; this reproduces it exactly so that both decoders agree.
    static func zeroAccepted(_ p: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        @inline(__always) func verdict(_ c: UInt8) -> Bool? {
            if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") { return false }
            if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { return true }
            return nil
        }
        let whole = count - count % 4
        for i in 0..<whole {
            if let answer = verdict(p[i]) { return answer }
        }
        for i in stride(from: count - 1, through: whole, by: -1) {
            if let answer = verdict(p[i]) { return answer }
        }
        return true
    }

    /// Clinger's fast path: exact when the significand and the power of ten are both exact
    /// Doubles, since one multiplication or division then rounds correctly.
    @inline(__always)
    private static func fastDouble(_ parsed: Parsed) -> Double? {
        if parsed.mantissa == 0 { return parsed.negative ? -0.0 : 0.0 }
        guard !parsed.truncated, parsed.mantissa <= 1 << 53, parsed.exponent >= -22, parsed.exponent <= 22 else {
            return nil
        }
        var value = Double(parsed.mantissa)
        if parsed.exponent < 0 {
            value /= doublePowers[-parsed.exponent]
        } else if parsed.exponent > 0 {
            value *= doublePowers[parsed.exponent]
        }
        return parsed.negative ? -value : value
    }

    private static let doublePowers: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
    ]
    private static let floatPowers: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10]

    // MARK: Decimal

    /// A Decimal as Foundation decodes it: nil for invalid tokens and values out of Decimal's range.
    static func decimal(_ p: UnsafePointer<UInt8>, _ count: Int) -> Decimal? {
        guard parse(p, count) != nil else { return nil }
        return Decimal(string: String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self))
    }
}
