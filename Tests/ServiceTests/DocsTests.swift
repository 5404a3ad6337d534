import Foundation
import XCTest

/// docs/services.md shows the service API as it is: the documented custom envelope is the code
/// compiled and run by CustomEnvelopeTests, and every override point's signature in the docs is
/// the one declared in the sources.
final class DocsTests: XCTestCase {
    private func text(_ path: String) throws -> String {
        try String(contentsOf: TypeChecker.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// Collapses whitespace (and drops it just inside parentheses), so a declaration wrapped
    /// over several lines matches its one-line form.
    private func normalized(_ text: String) -> String {
        var result = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        result = result.replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
        return result
    }

    func testCustomEnvelopeExampleIsTheCompiledOne() throws {
        let source = try text("Tests/ServiceTests/DocumentedEnvelope.swift")
        let begin = "// docs/services.md: custom envelope example begins\n"
        let end = "// docs/services.md: custom envelope example ends"
        guard let start = source.range(of: begin), let stop = source.range(of: end) else {
            return XCTFail("markers missing in DocumentedEnvelope.swift")
        }
        let example = String(source[start.upperBound..<stop.lowerBound])
        XCTAssertTrue(
            try text("docs/services.md").contains("```swift\n" + example + "```"),
            "docs/services.md must show DocumentedEnvelope.swift's example verbatim")
    }

    func testOverridePointSignaturesMatchTheSources() throws {
        let docs = normalized(try text("docs/services.md"))
        let declarations: [(file: String, signature: String)] = [
            ("Service.swift", "static var envelope: any EnvelopeFormat.Type { get }"),
            ("Service.swift", "var session: Session { get }"),
            ("Service.swift", "var decoder: any DataDecoder { get }"),
            ("Service.swift", "var plugins: [any Plugin] { get }"),
            ("Service.swift", "func makeRequest(_ target: any URLRequestConvertible) -> DataRequest"),
            (
                "Service.swift",
                "func judgeStatus<T: Decodable & Sendable>(by statusCode: Int, _ data: Data, "
                    + "type: T.Type, decodingMode: DecodingMode) -> NetworkResult<T>"
            ),
            ("Service.swift", "func standardRequest(_ target: any URLRequestConvertible) -> DataRequest"),
            (
                "Service.swift",
                "func standardJudgeStatus<T: Decodable & Sendable>(by statusCode: Int, _ data: Data, "
                    + "type: T.Type, decodingMode: DecodingMode = .payload) -> NetworkResult<T>"
            ),
            ("BaseService.swift", "class var envelope: any EnvelopeFormat.Type"),
            (
                "Service+Judging.swift",
                "func judge<T: Decodable & Sendable>(_ response: DataResponse<Data?>, "
                    + "as type: T.Type = T.self, decodingMode: DecodingMode = .payload) -> NetworkResult<T>"
            ),
            ("ResponseEnvelope.swift", "var envelopeFields: EnvelopeFields<Payload> { get }"),
            (
                "ResponseEnvelope.swift",
                "static func open<Payload: Decodable>(_ data: Data, as payload: Payload.Type, "
                    + "decoder: any DataDecoder) throws -> EnvelopeFields<Payload>"
            ),
            (
                "EnvelopeFields.swift",
                "init(payload: Payload?, message: String? = nil, isSuccessFlag: Bool? = nil, "
                    + "code: (any LosslessStringConvertible)? = nil, payloadKey: String?)"
            )
        ]
        for (file, signature) in declarations {
            let source = normalized(try text("Sources/Courier/Service/" + file))
            XCTAssertTrue(source.contains(signature), "\(file) does not declare `\(signature)`")
            XCTAssertTrue(docs.contains(signature), "docs/services.md does not show `\(signature)`")
        }
    }

    /// docs/plugins.md lists every hook of `Plugin` with the signature Plugin.swift declares.
    func testPluginHookSignaturesMatchTheSource() throws {
        let docs = normalized(try text("docs/plugins.md"))
        let source = normalized(try text("Sources/Courier/Plugins/Plugin.swift"))
        let hooks = [
            "func prepare(_ request: URLRequest, context: RequestContext) throws -> URLRequest",
            "func willSend(_ request: URLRequest, context: RequestContext)",
            "func didReceive(_ response: DataResponse<Data?>, context: RequestContext)",
            "func process(_ response: DataResponse<Data?>, context: RequestContext) throws -> DataResponse<Data?>"
        ]
        for hook in hooks {
            XCTAssertTrue(source.contains(hook), "Plugin.swift does not declare `\(hook)`")
            XCTAssertTrue(docs.contains(hook), "docs/plugins.md does not show `\(hook)`")
        }
    }
}
