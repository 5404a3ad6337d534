/// Escaping for user data placed in a URL path (see `appendInterpolation(segment:)`).
package enum PathSegment {
    /// Returns `value` escaped to be exactly one path segment, for example
    /// `PathSegment.escape("a/b c")` → `"a%2Fb%20c"`.
    package static func escape(_ value: String) -> String {
        PercentEscaping.escapePathSegment(value)
    }
}

extension DefaultStringInterpolation {
    /// Interpolates `value` as exactly one escaped path segment, so user data such as an ID can
    /// never change the route:
    /// ```swift
    /// var path: String { "/users/\(segment: userID)/posts" }
    /// // userID "../admin?x#y" → "/users/..%2Fadmin%3Fx%23y/posts"
    /// let escaped = "\(segment: "a/b c")"   // "a%2Fb%20c"
    /// ```
    /// Every byte except `A-Z a-z 0-9 - . _ ~` is percent-escaped (UTF-8, uppercase hex),
    /// including `/`, `?`, `#` and `%`; the dot-segments `.` and `..` become `%2E` and `%2E%2E`.
    /// An empty value stays empty, which leaves an empty segment (`/users//posts`): validate
    /// IDs yourself if that matters.
    public mutating func appendInterpolation<T: CustomStringConvertible>(segment value: T) {
        appendLiteral(PathSegment.escape(value.description))
    }
}
