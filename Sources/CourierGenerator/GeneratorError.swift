/// Why a document cannot be turned into Swift: what was wrong and where, as a JSON pointer into
/// the document (`#/paths/~1pets/get/responses/200`), so the message names the place to fix.
public struct GeneratorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON pointer of the offending part of the document (`#` for the whole document).
    public let pointer: String
    /// What was wrong there.
    public let message: String
    /// The file the pointer is in, when it is not the main document but one its references read
    /// (`schemas/Pet.yaml`: relative to the main document's directory when it is below it).
    public let file: String?

    /// An error at `pointer`, in `file` (nil: the main document).
    public init(_ pointer: String, _ message: String, file: String? = nil) {
        self.pointer = pointer
        self.message = message
        self.file = file
    }

    /// `<pointer>: <message>`, the pointer preceded by the file when it is another one.
    public var description: String { "\(file ?? "")\(pointer): \(message)" }
}
