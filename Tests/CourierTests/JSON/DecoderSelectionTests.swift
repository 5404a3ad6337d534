import Courier
import CourierSync
import CourierTesting
import Foundation
import XCTest

/// Which decoder reads a response: CourierJSONDecoder by default; Foundation's JSONDecoder (or
/// any DataDecoder) when a session, a service or a single call says so.
final class DecoderSelectionTests: XCTestCase {
    struct Profile: Decodable, Sendable, Equatable {
        let userName: String
    }

    /// A decoder that counts its calls and decodes with CourierJSONDecoder.
    final class CountingDecoder: DataDecoder {
        let name: String
        private let calls = Locked(0)
        var count: Int { calls.withLock { $0 } }

        init(_ name: String) {
            self.name = name
        }

        func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            calls.withLock { $0 += 1 }
            return try CourierJSONDecoder(keyDecodingStrategy: .convertFromSnakeCase).decode(type, from: data)
        }
    }

    private let body = #"{"user_name":"ada"}"#

    private func session(decoder: (any DataDecoder)? = nil, body: String? = nil) -> Session {
        var configuration = Session.Configuration()
        if let decoder { configuration.decoder = decoder }
        let text = body ?? self.body
        return Session.stubbed(configuration: configuration) { _ in .json(text) }
    }

    func testTheDefaultIsCourierJSONDecoder() {
        XCTAssertTrue(Session.Configuration().decoder is CourierJSONDecoder)
        XCTAssertTrue(Session.default.configuration.decoder is CourierJSONDecoder)
        XCTAssertTrue(BaseService().decoder is CourierJSONDecoder)
    }

    func testTheSessionDecoderReadsEveryCall() async throws {
        let counting = CountingDecoder("session")
        let session = session(decoder: counting)
        let value = try await session.request(.url("http://api.test/me")).decodable(Profile.self)
        XCTAssertEqual(value, Profile(userName: "ada"))
        _ = await session.request(.url("http://api.test/me")).decodableResponse(of: Profile.self)
        let delivered = expectation(description: "completion")
        session.request(.url("http://api.test/me")).responseDecodable(of: Profile.self) { response in
            XCTAssertEqual(try? response.result.get(), Profile(userName: "ada"))
            delivered.fulfill()
        }
        await fulfillment(of: [delivered], timeout: 10)
        XCTAssertEqual(counting.count, 3)
    }

    func testJSONLinesDecodeWithTheSessionDecoderUnlessTheCallPassesOne() async throws {
        let counting = CountingDecoder("session")
        let lines = #"{"user_name":"ada"}"# + "\n\n" + #"{"user_name":"bob"}"# + "\n"
        let session = session(decoder: counting, body: lines)
        var names: [String] = []
        for try await profile in session.streamRequest(.url("http://api.test/feed")).jsonLines(of: Profile.self) {
            names.append(profile.userName)
        }
        XCTAssertEqual(names, ["ada", "bob"])
        XCTAssertEqual(counting.count, 2, "blank lines are skipped; every other line goes to the session's decoder")
        let callDecoder = CountingDecoder("call")
        for try await _ in session.streamRequest(.url("http://api.test/feed")).jsonLines(
            of: Profile.self, decoder: callDecoder)
        {}
        XCTAssertEqual(callDecoder.count, 2)
        XCTAssertEqual(counting.count, 2)
        // Foundation's decoder is still one argument away.
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        var viaFoundation: [String] = []
        for try await profile in session.streamRequest(.url("http://api.test/feed")).jsonLines(
            of: Profile.self, decoder: foundation)
        {
            viaFoundation.append(profile.userName)
        }
        XCTAssertEqual(viaFoundation, names)
    }

    func testACallsDecoderWinsOverTheSessions() async throws {
        let sessionDecoder = CountingDecoder("session")
        let callDecoder = CountingDecoder("call")
        let session = session(decoder: sessionDecoder)
        _ = try await session.request(.url("http://api.test/me")).decodable(Profile.self, decoder: callDecoder)
        XCTAssertEqual(callDecoder.count, 1)
        XCTAssertEqual(sessionDecoder.count, 0)
    }

    func testFoundationsDecoderPerCall() async throws {
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let value = try await session().request(.url("http://api.test/me")).decodable(Profile.self, decoder: foundation)
        XCTAssertEqual(value, Profile(userName: "ada"))
        // The default (no key strategy) does not find `userName`: the same error from both decoders.
        let courierFailure = await session().request(.url("http://api.test/me")).decodableResponse(of: Profile.self)
            .error
        let foundationFailure = await session().request(.url("http://api.test/me"))
            .decodableResponse(of: Profile.self, decoder: JSONDecoder()).error
        XCTAssertSameError(courierFailure, .decodingFailed(path: "userName", reason: "missing key 'userName'"))
        XCTAssertEqual(courierFailure, foundationFailure)
    }

    /// Malformed values are `decodingFailed` at the top, like Foundation's, but the reason says
    /// what was wrong and where.
    func testMalformedValuesSayWhatAndWhere() async {
        let failure = await session(body: "[1,\n 300]").request(.url("http://api.test/bytes")).decodableResponse(
            of: [UInt8].self
        ).error
        guard let failure_ = failure, failure_ == .decodingFailed, let path = failure_.subject,
            let reason = failure_.reason
        else {
            return XCTFail("\(String(describing: failure))")
        }
        XCTAssertEqual(path, "")
        XCTAssertTrue(
            reason.contains("not valid JSON") && reason.contains("300 is not representable as UInt8")
                && reason.contains("line 2, column 2"), reason)
    }

    /// A service without a decoder of its own uses its session's.
    final class DefaultService: Service {
        static var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }
        let session: Session
        init(session: Session) { self.session = session }
        func profile() async -> NetworkResult<Profile> { await request(.url("http://api.test/me")) }
    }

    /// A service that decodes with Foundation's decoder.
    final class FoundationService: Service {
        static var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }
        let session: Session
        let decoder: any DataDecoder
        init(session: Session, decoder: any DataDecoder) {
            self.session = session
            self.decoder = decoder
        }
        func profile() async -> NetworkResult<Profile> { await request(.url("http://api.test/me")) }
    }

    final class SubclassService: BaseService, @unchecked Sendable {
        override class var envelope: any EnvelopeFormat.Type { StatusEnvelope.self }
        func profile() async -> NetworkResult<Profile> { await request(.url("http://api.test/me")) }
    }

    func testServicesAndEnvelopesUseTheServiceDecoder() async {
        let envelope = #"{"status":200,"success":true,"message":"ok","data":{"user_name":"ada"}}"#
        let sessionDecoder = CountingDecoder("session")
        let session = session(decoder: sessionDecoder, body: envelope)

        guard case .success(let fromSession) = await DefaultService(session: session).profile() else {
            return XCTFail("the session's decoder should have read the envelope")
        }
        XCTAssertEqual(fromSession, Profile(userName: "ada"))
        XCTAssertEqual(sessionDecoder.count, 1)

        let serviceDecoder = CountingDecoder("service")
        guard case .success = await FoundationService(session: session, decoder: serviceDecoder).profile() else {
            return XCTFail("the service's decoder should have read the envelope")
        }
        XCTAssertEqual(serviceDecoder.count, 1)
        XCTAssertEqual(sessionDecoder.count, 1)

        guard case .success = await SubclassService(session: session).profile() else {
            return XCTFail("a BaseService without a decoder takes its session's")
        }
        XCTAssertEqual(sessionDecoder.count, 2)
        let subclassDecoder = CountingDecoder("subclass")
        guard case .success = await SubclassService(session: session, decoder: subclassDecoder).profile() else {
            return XCTFail("a BaseService given a decoder uses it")
        }
        XCTAssertEqual(subclassDecoder.count, 1)

        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        guard
            case .success(let fromFoundation) = await FoundationService(session: session, decoder: foundation).profile()
        else {
            return XCTFail("Foundation's decoder is selectable per service")
        }
        XCTAssertEqual(fromFoundation, Profile(userName: "ada"))
    }
}
