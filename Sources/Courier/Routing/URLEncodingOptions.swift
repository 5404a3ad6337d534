/// How parameters are written into a query string or an
/// `application/x-www-form-urlencoded` body.
///
/// The defaults reproduce the widespread Alamofire conventions, so the same parameters
/// give byte-identical requests:
/// `["a": [1, 2], "b": true, "c": "x y"]` → `a%5B%5D=1&a%5B%5D=2&b=1&c=x%20y`.
public struct URLEncodingOptions: Sendable {
    /// How array elements are keyed.
    public enum ArrayEncoding: Hashable, Sendable {
        /// `ids[]=1&ids[]=2` (escaped as `ids%5B%5D=1&ids%5B%5D=2`). The default.
        case brackets
        /// `ids=1&ids=2`.
        case noBrackets
        /// `ids[0]=1&ids[1]=2` (escaped as `ids%5B0%5D=1&ids%5B1%5D=2`).
        case indexInBrackets
    }

    /// How `Bool` values are written.
    public enum BoolEncoding: Hashable, Sendable {
        /// `true` → `1`, `false` → `0`. The default.
        case numeric
        /// `true` → `true`, `false` → `false`.
        case literal
    }

    /// How a space is written.
    public enum SpaceEncoding: Hashable, Sendable {
        /// ` ` → `%20`. The default.
        case percentEscaped
        /// ` ` → `+` (a literal `+` is still written `%2B`).
        case plusReplaced
    }

    /// How `nil` optionals and `NSNull` values are written.
    public enum NilEncoding: Hashable, Sendable {
        /// The key is left out entirely. The default.
        case dropKey
        /// The key is written with an empty value: `key=`.
        case dropValue
        /// The key is written with the text `null`: `key=null`.
        case null

    }

    /// How the keys of nested objects are joined to their parent's key.
    public enum KeyPathEncoding: Sendable {
        /// `user[name]=Ada` (escaped as `user%5Bname%5D=Ada`). The default.
        case brackets
        /// `user.name=Ada`.
        case dots
        /// The closure turns each nested key into the text appended to its parent's key:
        /// `.custom { "__\($0)" }` writes `user__name=Ada`.
        case custom(@Sendable (_ subkey: String) -> String)

        /// `parent` followed by `subkey` written this way.
        func join(_ parent: String, _ subkey: String) -> String {
            switch self {
            case .brackets: return "\(parent)[\(subkey)]"
            case .dots: return "\(parent).\(subkey)"
            case .custom(let transform): return parent + transform(subkey)
            }
        }
    }

    package let arrayEncoding: ArrayEncoding
    package let boolEncoding: BoolEncoding
    package let spaceEncoding: SpaceEncoding
    package let nilEncoding: NilEncoding
    package let keyPathEncoding: KeyPathEncoding

    /// Creates options; every argument defaults to the Alamofire-compatible behaviour.
    /// - Parameters:
    ///   - arrayEncoding: how array elements are keyed. Default: ``ArrayEncoding/brackets``.
    ///   - boolEncoding: how booleans are written. Default: ``BoolEncoding/numeric``.
    ///   - spaceEncoding: how spaces are written. Default: ``SpaceEncoding/percentEscaped``.
    ///   - nilEncoding: how `nil` values are written. Default: ``NilEncoding/dropKey``.
    ///   - keyPathEncoding: how nested keys are written. Default: ``KeyPathEncoding/brackets``.
    public init(
        arrayEncoding: ArrayEncoding = .brackets,
        boolEncoding: BoolEncoding = .numeric,
        spaceEncoding: SpaceEncoding = .percentEscaped,
        nilEncoding: NilEncoding = .dropKey,
        keyPathEncoding: KeyPathEncoding = .brackets
    ) {
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.spaceEncoding = spaceEncoding
        self.nilEncoding = nilEncoding
        self.keyPathEncoding = keyPathEncoding
    }

    /// Brackets for arrays and nested keys, `1`/`0` for booleans, `%20` for spaces, `nil` keys dropped.
    @usableFromInline static let `default` = URLEncodingOptions()

    /// The key of element `index` of the array at `key`.
    func arrayKey(_ key: String, index: Int) -> String {
        switch arrayEncoding {
        case .brackets: return "\(key)[]"
        case .noBrackets: return key
        case .indexInBrackets: return "\(key)[\(index)]"
        }
    }

    /// The text written for a `nil` value, or `nil` when its key is dropped.
    var nilText: String? {
        switch nilEncoding {
        case .dropKey: return nil
        case .dropValue: return ""
        case .null: return "null"
        }
    }
}
