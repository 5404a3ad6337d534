/// Why a document cannot be turned into Swift: what was wrong and where, as a JSON pointer into
/// the document (`#/paths/~1pets/get/responses/200`), so the message names the place to fix.
public struct GeneratorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON pointer of the offending part of the document (`#` for the whole document).
    public let pointer: String
    /// What was wrong there.
    public let message: String

    /// An error at `pointer`.
    public init(_ pointer: String, _ message: String) {
        self.pointer = pointer
        self.message = message
    }

    /// `<pointer>: <message>`.
    public var description: String { "\(pointer): \(message)" }
}
