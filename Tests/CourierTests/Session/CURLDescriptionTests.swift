@testable import Courier
import Foundation
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

final class CURLDescriptionTests: XCTestCase {
    func testSecretsAreRedactedAndShellQuoted() throws {
        var request = try XCTUnwrap(
            URLRequest(url: XCTUnwrap(URL(string: "https://user:pw@api.example.com/v1/items?q=1"))))
        request.httpMethod = "POST"
        request.setValue("Bearer secret-token", forHTTPHeaderField: "Authorization")
        request.setValue("session=abc", forHTTPHeaderField: "Cookie")
        request.setValue("k-123", forHTTPHeaderField: "X-Api-Key")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"name":"O'Brien"}"#.utf8)
        let text = CURLCommand.render(
            HTTPRequest(testing: request), redactor: Redactor(security: SecurityPolicy(secretHeaders: ["x-api-key"]))
        )
        XCTAssertFalse(text.contains("secret-token"))
        XCTAssertFalse(text.contains("session=abc"))
        XCTAssertFalse(text.contains("k-123"))
        XCTAssertFalse(text.contains(":pw@"))
        XCTAssertTrue(text.contains("-H 'Authorization: <redacted>'"))
        XCTAssertTrue(text.contains("-H 'Content-Type: application/json'"))
        XCTAssertTrue(text.contains(#"--data-binary '{"name":"O'\''Brien"}'"#))
        XCTAssertTrue(text.hasPrefix("curl"))
        XCTAssertTrue(text.contains("-X POST"))
    }

    /// The session's secret keys are hidden in the query and in JSON and form bodies, as the
    /// logger hides them; the rest of the command is left as it was written.
    func testSecretKeysAreRedactedInTheQueryAndTheBody() throws {
        var configuration = Session.Configuration()
        configuration.security.secretKeys.insert("otp")
        let session = Session(configuration: configuration)
        let jsonText = session.request(KeyedRouter.signIn(email: "ada@example.com", pw: "json-S2", otp: "json-S3"))
            .cURLDescription()
        let formText = session.request(KeyedRouter.formSignIn(user: "ada", password: "form-S4")).cURLDescription()
        for secret in ["q-S1", "json-S2", "json-S3", "form-S4"] {
            XCTAssertFalse(jsonText.contains(secret), jsonText)
            XCTAssertFalse(formText.contains(secret), formText)
        }
        XCTAssertTrue(jsonText.contains("api_key=<redacted>&page=2"), jsonText)
        XCTAssertTrue(jsonText.contains(#""email":"ada@example.com""#), jsonText)
        XCTAssertTrue(jsonText.contains(#""pw":"<redacted>""#), jsonText)
        XCTAssertTrue(formText.contains("user=ada"), formText)
        XCTAssertTrue(formText.contains("password=<redacted>"), formText)
    }

    /// An endpoint declaring `.query(name:)` keeps that parameter secret, even a name the
    /// policy does not list.
    func testTheRoutersQueryCredentialIsRedacted() {
        let text = Session().request(KeyedRouter.forecast(city: "Oslo", key: "k-S5")).cURLDescription()
        XCTAssertFalse(text.contains("k-S5"), text)
        XCTAssertTrue(text.contains("city=Oslo"), text)
        XCTAssertTrue(text.contains("appid=<redacted>"), text)
    }

    func testSessionRendersDefaultHeaders() {
        let request = Session().request(.url("http://127.0.0.1:1/x"))
        XCTAssertTrue(request.cURLDescription().contains("User-Agent: Courier/\(CourierInfo.version)"))
        XCTAssertTrue(Session().request(.url("not a url")).cURLDescription().contains("could not be built"))
    }
}

/// Sign-in endpoints with secrets in the query and the body, and one keyed by a query parameter
/// the policy does not name.
private enum KeyedRouter: Router {
    case signIn(email: String, pw: String, otp: String)
    case formSignIn(user: String, password: String)
    case forecast(city: String, key: String)
    var baseURL: String { "https://api.example.com" }
    var path: String {
        switch self {
        case .signIn, .formSignIn: return "/auth/signin"
        case .forecast: return "/forecast"
        }
    }
    var method: HTTPMethod {
        switch self {
        case .signIn, .formSignIn: return .post
        case .forecast: return .get
        }
    }
    var parameters: RequestParams {
        switch self {
        case .signIn(let email, let pw, let otp):
            return .queryBody(["api_key": "q-S1", "page": 2], ["email": email, "pw": pw, "otp": otp])
        case .formSignIn(let user, let password): return .form(["user": user, "password": password])
        case .forecast(let city, let key): return .query(["city": city, "appid": key])
        }
    }
    var authorization: AuthorizationType {
        switch self {
        case .forecast: return .query(name: "appid")
        case .signIn, .formSignIn: return .none
        }
    }
}
