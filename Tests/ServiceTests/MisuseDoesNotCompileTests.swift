import XCTest

/// Declarations that used to compile and then silently do nothing (a protocol default winning
/// over a property of another type) now fail to compile, with an error naming the problem.
/// Each case also checks that the corrected declaration compiles.
final class MisuseDoesNotCompileTests: XCTestCase {
    // MARK: Custom envelopes (issue 8, point 3)

    func testEnvelopeThatDoesNotSayWhereItsFieldsAreDoesNotCompile() throws {
        // The shape docs/services.md used to show, with `message` non-optional and `code` a
        // String: both were dropped in favour of the protocol's nil defaults.
        let model = """
            import Courier
            struct Wrapped<P: Decodable>: ResponseEnvelope {
                let ok: Bool
                let message: String
                let code: String
                let body: P?
                var payload: P? { body }
                var isSuccessFlag: Bool? { ok }
            %@
            }
            """
        let fields = """
                var envelopeFields: EnvelopeFields<P> {
                    EnvelopeFields(payload: body, message: message, isSuccessFlag: ok, code: code, payloadKey: "body")
                }
            """
        try TypeChecker.assertRejected(
            model.replacingOccurrences(of: "%@", with: ""),
            with: "type 'Wrapped<P>' does not conform to protocol 'ResponseEnvelope'",
            whileAccepting: model.replacingOccurrences(of: "%@", with: fields))
    }

    func testEnvelopeFieldOfTheWrongTypeDoesNotCompile() throws {
        let model = """
            import Courier
            struct Wrapped<P: Decodable>: ResponseEnvelope {
                let result: String
                let body: P?
                var envelopeFields: EnvelopeFields<P> {
                    EnvelopeFields(payload: body, isSuccessFlag: %@, payloadKey: "body")
                }
            }
            """
        try TypeChecker.assertRejected(
            model.replacingOccurrences(of: "%@", with: "result"),
            with: "cannot convert value of type 'String' to expected argument type 'Bool",
            whileAccepting: model.replacingOccurrences(of: "%@", with: #"result == "OK""#))
    }

    // MARK: Routers (point 5)

    func testRouterParametersAsADictionaryDoNotCompile() throws {
        let router = """
            import Courier
            enum SearchAPI: Router {
                case search(String)
                var baseURL: String { "https://api.example.com" }
                var path: String { "/search" }
                var method: HTTPMethod { .get }
                var parameters: %@ {
                    switch self { case let .search(text): return %@ }
                }
            }
            """
        func declaring(_ type: String, _ value: String) -> String {
            router.replacingOccurrences(of: "var parameters: %@", with: "var parameters: \(type)")
                .replacingOccurrences(of: "return %@", with: "return \(value)")
        }
        let good = declaring("RequestParams", #".query(["q": text])"#)
        try TypeChecker.assertRejected(
            declaring("[String: Any]", #"["q": text]"#),
            with: "a Router's parameters say how they are encoded", whileAccepting: good)
        try TypeChecker.assertRejected(
            declaring("Parameters", #"["q": text]"#),
            with: "a Router's parameters say how they are encoded", whileAccepting: good)
        try TypeChecker.assertRejected(
            declaring("RequestParams?", #".query(["q": text])"#),
            with: "a Router's parameters are not optional", whileAccepting: good)
    }

    func testMoyaStyleURLBaseDoesNotCompile() throws {
        let router = """
            import Courier
            import Foundation
            enum HomeAPI: Router {
                case banner
                var baseURL: %@
                var path: String { "/home/banner" }
                var method: HTTPMethod { .get }
            }
            """
        try TypeChecker.assertRejected(
            router.replacingOccurrences(of: "%@", with: #"URL { URL(string: "https://api.example.com")! }"#),
            with: "type 'HomeAPI' does not conform to protocol 'Router'",
            whileAccepting: router.replacingOccurrences(of: "%@", with: #"String { "https://api.example.com" }"#))
    }

    // MARK: Services (point 6)

    func testServiceWithoutAnEnvelopeOrWithAnInstanceEnvelopeDoesNotCompile() throws {
        let service = """
            import Courier
            struct AuthService: Service {
                static let shared = AuthService()
                %@
            }
            """
        let good = service.replacingOccurrences(
            of: "%@", with: "static var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }")
        try TypeChecker.assertRejected(
            service.replacingOccurrences(of: "%@", with: ""),
            with: "type 'AuthService' does not conform to protocol 'Service'",
            whileAccepting: good)
        try TypeChecker.assertRejected(
            service.replacingOccurrences(
                of: "%@", with: "var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }"),
            with: "type 'AuthService' does not conform to protocol 'Service'", whileAccepting: good)
    }

    func testServiceWithMutableSharedStateDoesNotCompile() throws {
        let service = """
            import Courier
            final class CounterService: Service {
                static let shared = CounterService()
                static var envelope: any EnvelopeFormat.Type { NoEnvelope.self }
                %@ calls = 0
            }
            """
        try TypeChecker.assertRejected(
            service.replacingOccurrences(of: "%@", with: "var"),
            with: "stored property 'calls' of 'Sendable'-conforming class 'CounterService' is mutable",
            whileAccepting: service.replacingOccurrences(of: "%@", with: "let"))
    }

    // MARK: Plugins (issue 19)

    /// A plugin hook with a wrong label or type compiles without any diagnostic in Swift 6.3 (its
    /// "nearly matches defaulted requirement" warning does not fire), in the type or in an
    /// extension, which is why docs/plugins.md points to `PluginHook.implemented(by:)`. When a
    /// Swift release starts diagnosing these, this test fails: then test for the diagnostic and
    /// update the guide.
    func testAPluginHookWithAWrongSignatureCompilesSilently() throws {
        let misspelled = [
            "func prepare(_ request: URLRequest, ctx: RequestContext) throws -> URLRequest { request }",
            "func willSend(_ request: URLRequest?, context: RequestContext) {}",
            "func didReceive(_ response: DataResponse<Data>, context: RequestContext) {}",
            "func process(_ response: DataResponse<Data?>, ctx: RequestContext) throws -> DataResponse<Data?> { response }"
        ]
        for hook in misspelled {
            for source in [
                "struct P: Plugin { \(hook) }",
                "struct P: Plugin {}\nextension P { \(hook) }"
            ] {
                let outcome = try TypeChecker.typecheck(
                    """
                    import Courier
                    import Foundation
                    #if canImport(FoundationNetworking)
                    import FoundationNetworking
                    #endif
                    \(source)
                    """)
                XCTAssertTrue(outcome.compiled, outcome.diagnostics)
                XCTAssertFalse(
                    outcome.diagnostics.contains("warning"), "Swift now diagnoses \(hook):\n\(outcome.diagnostics)")
            }
        }
    }
}
