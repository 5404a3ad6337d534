/// A parameter dictionary as users write it:
/// ```swift
/// let parameters: Parameters = ["email": email, "filters": ["a": 1], "ids": [1, 2]]
/// ```
/// Values may be `String`, `Bool`, any integer or floating-point type, `Decimal`,
/// `NSNumber`, `NSNull`, `nil` optionals, arrays of these and nested `[String: any Sendable]`
/// dictionaries, nested at most 100 levels (a key path such as `user.tags[0]` has at most 100
/// components). Anything else (a `Date`, a custom class, `Double.nan`, a deeper tree) makes
/// encoding throw ``CourierError/parameterEncodingFailed`` naming the key path.
///
/// A nested literal whose values have *different* types is inferred as `[String: Any]`,
/// which is not `Sendable`; annotate it: `["user": ["name": "Ada", "age": 36] as Parameters]`,
/// `["mixed": [1, "a"] as [any Sendable]]`.
public typealias Parameters = [String: any Sendable]
