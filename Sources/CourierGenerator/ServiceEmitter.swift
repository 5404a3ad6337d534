/// The names of the module-wide declarations, derived from the module name.
struct ModuleNames: Sendable {
    let module: String
    var baseRouter: String { module + "BaseRouter" }
    var openEnum: String { module + "OpenEnum" }
    var server: String { module + "Server" }
    var coding: String { module + "Coding" }
    func router(_ tag: String) -> String { tag + "Router" }
    func service(_ tag: String) -> String { tag + "Service" }

    /// Every name the generated support and tag types take, so models are named around them.
    func reserved(tags: [String]) -> Set<String> {
        Set(
            [baseRouter, openEnum, server, coding, "GeneratedCodingKey"] + tags.flatMap { [router($0), service($0)] }
        )
    }
}

/// Writes one tag's service: a final class with a shared instance and, per operation, an async
/// method and a completion-handler method returning `NetworkResult`.
struct ServiceEmitter {
    let names: ModuleNames
    let tag: String
    let operations: [Operation]

    func emit() -> [String] {
        let service = names.service(tag)
        var out = ["/// The `\(tag)` operations, each returning a `NetworkResult`."]
        out.append("public final class \(service): Service {")
        out.append("    /// The instance sending its requests with `Session.default`.")
        out.append("    public static let shared = \(service)()")
        out.append("")
        out.append("    /// The bodies are the values themselves.")
        out.append("    public static var envelope: any EnvelopeFormat.Type { NoEnvelope.self }")
        out.append("")
        out.append("    /// Reads `date-time` values as ISO 8601.")
        out.append("    public var decoder: any DataDecoder { \(names.coding).makeDecoder() }")
        out.append("")
        out.append(
            "    /// The session the requests are sent with (a `ServiceSession` override wins within its scope).")
        out.append("    public let session: Session")
        out.append("")
        out.append("    /// A service sending its requests with `session`, such as one whose interceptors add the")
        out.append("    /// document's credentials (an `AuthenticationInterceptor`).")
        out.append("    public init(session: Session = .default) {")
        out.append("        self.session = session")
        out.append("    }")
        for operation in operations {
            let parameters = operation.arguments.map {
                "\(Naming.escaped($0.label)): \($0.type)\($0.optional ? "? = nil" : "")"
            }
            let route =
                "\(names.router(tag)).\(Naming.escaped(operation.caseName))"
                + (operation.arguments.isEmpty
                    ? ""
                    : "("
                        + operation.arguments.map { "\($0.label): \(Naming.escaped($0.label))" }.joined(separator: ", ")
                        + ")")
            let result = "NetworkResult<\(operation.response)>"
            let summary = operation.summary ?? "`\(operation.method.uppercased()) \(operation.path)`."
            // The router's case is deprecated too: these methods, deprecated as well, make it
            // without a warning, as the router's own `switch`es do.
            let deprecation = operation.deprecated ? ["    \(Operation.deprecation)"] : []
            out.append("")
            out.append("    /// \(summary)")
            out += deprecation
            out.append(
                "    public func \(Naming.escaped(operation.caseName))(\(parameters.joined(separator: ", "))) async -> \(result) {"
            )
            let mode = operation.responseIsBody ? ", decodingMode: .body" : ""
            out.append("        await request(\(route)\(mode))")
            out.append("    }")
            out.append("")
            out.append("    /// \(summary) Calls `completion` once, on `queue` or the session's callback queue.")
            out += deprecation
            out.append("    @discardableResult")
            let handler =
                parameters + [
                    "queue: DispatchQueue? = nil", "completion: @escaping @Sendable (\(result)) -> Void"
                ]
            out.append(
                "    public func \(Naming.escaped(operation.caseName))(\(handler.joined(separator: ", "))) -> DataRequest {"
            )
            out.append("        request(\(route)\(mode), queue: queue, completion: completion)")
            out.append("    }")
        }
        out.append("}")
        return out
    }
}

/// Writes the module's shared declarations: the server, the base router, the coders, the
/// free-form JSON value and the coding key the models use.
struct SupportEmitter {
    let names: ModuleNames
    let baseURL: String
    let title: String
    /// Some operation has cookie parameters: the coding gets `cookieValue`.
    let usesCookies: Bool

    func emit() -> [String] {
        var out = ["/// Where the routers of \(Naming.docLine(title)) send their requests."]
        out.append("public enum \(names.server) {")
        out.append("    /// The base URL: the document's first server unless overridden for the current task.")
        out.append("    @TaskLocal public static var baseURL: String = \(Naming.literal(baseURL))")
        out.append("}")
        out.append("")
        out.append("/// Every router of the module adopts it, so the base URL is declared once.")
        out.append("public protocol \(names.baseRouter): Router {}")
        out.append("")
        out.append("extension \(names.baseRouter) {")
        out.append("    /// ``\(names.server)/baseURL``.")
        out.append("    public var baseURL: String { \(names.server).baseURL }")
        out.append("}")
        out.append("")
        out += Self.lines(Self.openEnum(names.openEnum, coding: names.coding))
        out.append("")
        out += Self.lines(Self.coding(names.coding))
        if usesCookies {
            out += [
                "",
                "extension \(names.coding) {",
                "    /// `text` as one cookie value: every byte but letters, digits and `-._~` percent-encoded.",
                "    public static func cookieValue(_ text: String) -> String {",
                "        text.addingPercentEncoding(withAllowedCharacters: cookieSafe) ?? \"\"",
                "    }",
                "",
                "    private static let cookieSafe = CharacterSet(",
                "        charactersIn: \"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~\")",
                "}"
            ]
        }
        return out
    }

    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The protocol every generated enum adopts: the conformances, the decoding that a union's
    /// trials can make strict, and equality and hashing by raw value, written once.
    private static func openEnum(_ name: String, coding: String) -> String {
        #"""
        /// Every enum of the module adopts it. A value the document does not list is kept as the
        /// enum's `undocumented` case, so that a value a server adds later does not make a response
        /// fail to decode. Values are coded, compared and hashed as their raw values:
        /// `.undocumented(x)` equals the case that lists `x`.
        public protocol \#(name): RawRepresentable, CaseIterable, Codable, Hashable, Sendable
        where RawValue: Codable & Hashable & Sendable, AllCases == [Self] {
            /// The case for `rawValue`: a listed value, else `undocumented(rawValue)`.
            init(rawValue: RawValue)
        }

        extension \#(name) {
            /// Decodes the raw value. While a union tries its variants, a value the document does not
            /// list fails, so that a variant listing it is chosen first.
            public init(from decoder: any Decoder) throws {
                let rawValue = try decoder.singleValueContainer().decode(RawValue.self)
                self.init(rawValue: rawValue)
                if \#(coding).listedValuesOnly, !Self.allCases.contains(self) {
                    throw DecodingError.dataCorrupted(
                        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "\(rawValue) is not listed"))
                }
            }

            /// Equal when the raw values are: `.undocumented(x)` equals the case that lists `x`.
            public static func == (lhs: Self, rhs: Self) -> Bool { lhs.rawValue == rhs.rawValue }

            /// Hashes the raw value, as `==` compares it.
            public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
        }
        """#
    }

    private static func coding(_ name: String) -> String {
        #"""
        /// How the module encodes and decodes: ISO 8601 dates, sorted keys, OpenAPI's query style.
        public enum \#(name) {
            /// True while a union tries its variants in turn: an enum then refuses a value the
            /// document does not list, so that the variant listing it is chosen.
            @TaskLocal static var listedValuesOnly = false

            /// Repeated keys for arrays (`tag=a&tag=b`), `true`/`false` for booleans.
            public static let queryOptions = URLEncodingOptions(arrayEncoding: .noBrackets, boolEncoding: .literal)

            /// The decoder of the services: ISO 8601 dates, with or without fractional seconds.
            public static func makeDecoder() -> CourierJSONDecoder {
                CourierJSONDecoder(
                    dateDecodingStrategy: .custom { decoder in
                        let container = try decoder.singleValueContainer()
                        let text = try container.decode(String.self)
                        guard let date = date(text) else {
                            throw DecodingError.dataCorruptedError(
                                in: container, debugDescription: "not an ISO 8601 date-time: \(text)")
                        }
                        return date
                    })
            }

            /// The encoder of request bodies: sorted keys, ISO 8601 dates.
            public static func makeEncoder() -> JSONEncoder {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .custom { date, encoder in
                    var container = encoder.singleValueContainer()
                    try container.encode(text(date))
                }
                return encoder
            }

            /// `value` as JSON text (`null` if it cannot be encoded): a multipart part that is an object.
            public static func jsonText(_ value: some Encodable) -> String {
                (try? makeEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
            }

            /// `date` as an ISO 8601 date-time, in UTC with fractional seconds when it has them.
            public static func text(_ date: Date) -> String {
                let formatter = ISO8601DateFormatter()
                if date.timeIntervalSince1970.rounded() != date.timeIntervalSince1970 {
                    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                }
                return formatter.string(from: date)
            }

            /// The date of an ISO 8601 date-time, with or without fractional seconds.
            public static func date(_ text: String) -> Date? {
                let formatter = ISO8601DateFormatter()
                if let date = formatter.date(from: text) { return date }
                formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
                return formatter.date(from: text)
            }
        }

        /// A coding key made at run time: discriminators and additional properties.
        struct GeneratedCodingKey: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }

            init(_ name: String) { stringValue = name }

            init(stringValue: String) { self.stringValue = stringValue }

            init?(intValue: Int) { nil }
        }
        """#
    }
}
