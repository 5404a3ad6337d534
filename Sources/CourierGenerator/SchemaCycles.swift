/// The cycles among component schemas that no Swift type can express, refused with the
/// component's pointer once every component is declared. Cycles through an object's properties,
/// an array or a dictionary are fine (see ``ModelEmitter``); these two are not:
///
/// - a component that is nothing but references leading back to itself (`A: {$ref: B}`,
///   `B: {$ref: A}`) describes no value;
/// - a `oneOf`/`anyOf` with a variant that leads back to the union itself through aliases and
///   other unions (`U: {anyOf: [{$ref: U}, {type: string}]}`) would decode forever: trying that
///   variant decodes the same value as the union again.
extension SchemaResolver {
    func refuseCycles(_ components: [(key: String, value: DocumentValue)]) throws(GeneratorError) {
        var keys: [String: String] = [:]
        for (key, _) in components {
            if let name = componentNames[Self.componentPointer(key)] { keys[name] = key }
        }
        for (key, _) in components {
            let pointer = Self.componentPointer(key)
            guard let name = componentNames[pointer] else { continue }
            if let chain = referenceCycle(from: name, keys: keys) {
                throw GeneratorError(
                    pointer,
                    "the schema is only references that lead back to it (\(chain.joined(separator: " → "))), "
                        + "so it describes no value")
            }
            if case .union(_, _, let variants, _)? = declarations[name], unionLeadsBack(to: name, variants) {
                throw GeneratorError(
                    pointer,
                    "a variant leads back to \(key) itself, with no object, array or map between, "
                        + "so decoding it would never end")
            }
        }
    }

    private static func componentPointer(_ key: String) -> String {
        JSONPointer.appending("#/components/schemas", key)
    }

    /// The component keys from `name` back to it when its declaration is an alias of an alias...
    /// of itself; nil otherwise (a chain that ends, or a cycle that `name` is not on).
    private func referenceCycle(from name: String, keys: [String: String]) -> [String]? {
        var chain = [keys[name] ?? name]
        var current = name
        while case .alias(_, _, .named(let next))? = declarations[current] {
            if next == name { return chain + [chain[0]] }
            guard !chain.contains(keys[next] ?? next) else { return nil }
            chain.append(keys[next] ?? next)
            current = next
        }
        return nil
    }

    /// Whether a variant of union `name` is `name` again, through aliases and other unions.
    private func unionLeadsBack(to name: String, _ variants: [UnionVariant]) -> Bool {
        func named(_ types: [SwiftType]) -> [String] {
            types.compactMap { if case .named(let name) = $0 { name } else { nil } }
        }
        return ModelGraph.reaches(name, from: named(variants.map(\.type))) { next in
            switch declarations[next] {
            case .union(_, _, let more, _)?: return named(more.map(\.type))
            case .alias(_, _, let aliased)?: return named([aliased])
            default: return []
            }
        }
    }
}
