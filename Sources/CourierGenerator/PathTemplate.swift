/// An OpenAPI path template such as `/pets/{id}/photos`, read once into its literal text and its
/// `{parameters}`; the collector checks it and the router writes it from the same pieces.
struct PathTemplate: Sendable, Equatable {
    /// A run of literal text, or the name of a parameter.
    enum Piece: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let pieces: [Piece]

    /// The template's pieces, or what is wrong with its braces: every `{` must be closed by a
    /// `}` before the next `{`, and every `}` must close one.
    static func parse(_ path: String) -> Result<PathTemplate, Problem> {
        var pieces: [Piece] = []
        var literal = ""
        var name: String?
        for character in path {
            switch (character, name) {
            case ("{", nil):
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = ""
                name = ""
            case ("{", _?): return .failure(Problem(text: "opens a parameter inside another"))
            case ("}", nil): return .failure(Problem(text: "has a } that closes no parameter"))
            case ("}", let current?):
                pieces.append(.parameter(current))
                name = nil
            case (_, var current?):
                current.append(character)
                name = current
            case (_, nil): literal.append(character)
            }
        }
        if name != nil { return .failure(Problem(text: "has a { that is not closed")) }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return .success(PathTemplate(pieces: pieces))
    }

    /// The `{name}`s, in order.
    var parameterNames: [String] {
        pieces.compactMap {
            if case .parameter(let name) = $0 { return name }
            return nil
        }
    }

    /// Why a template's braces do not parse, worded to follow "the path /a/{id".
    struct Problem: Error, Equatable {
        let text: String
    }
}
