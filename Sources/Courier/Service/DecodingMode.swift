/// Which part of a response body a service call decodes into its value.
///
/// ```swift
/// await request(AuthRouter.signIn(email: e, pw: p), as: SignIn.self)                // .payload
/// await request(AuthRouter.signOut, as: String.self, decodingMode: .message)         // "bye"
/// await request(AuthRouter.me, as: StatusEnvelope.Body<User>.self, decodingMode: .envelope)
/// await request(FileRouter.avatar(id: 7), as: Data.self, decodingMode: .body)          // the bytes
/// ```
public enum DecodingMode: Sendable, Equatable {
    /// The envelope's payload field (`data` or `result`), or the whole body for ``NoEnvelope``.
    /// A missing or null payload is a ``NetworkResult/pathErr(_:)`` unless the value is ``Empty``.
    case payload
    /// The envelope's message field, as a `String`; a missing message is a
    /// ``NetworkResult/pathErr(_:)``.
    case message
    /// The whole body, decoded as the requested type (typically an envelope model such as
    /// ``StatusEnvelope/Body``), ignoring the service's ``Service/envelope``; a false success flag
    /// in a ``ResponseEnvelope`` is still a ``NetworkResult/requestErr(_:)``.
    case envelope
    /// The body itself, not decoded: `Data` for its bytes, or `String` for its text (UTF-8), for
    /// images, files and plain-text replies (a content coding such as gzip is still undone). An
    /// empty body is an empty value; any other type is a ``NetworkResult/pathErr(_:)`` naming
    /// the mode. Non-2xx statuses are judged as in every mode.
    case body
}
