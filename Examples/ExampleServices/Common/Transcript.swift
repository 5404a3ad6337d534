/// The readable output of a scenario run, kept so tests can assert on it.
public struct Transcript: Sendable, CustomStringConvertible {
    /// The lines logged so far, in order.
    public private(set) var lines: [String] = []
    /// Whether lines are also printed to standard output as they are logged.
    public let echo: Bool

    /// Creates an empty transcript.
    public init(echo: Bool) {
        self.echo = echo
    }

    /// Appends (and maybe prints) one line.
    public mutating func log(_ line: String) {
        lines.append(line)
        if echo { print(line) }
    }

    /// All lines joined by newlines.
    public var description: String { lines.joined(separator: "\n") }
}
