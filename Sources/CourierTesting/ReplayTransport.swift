import Courier
import CourierSync
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Record and replay: runs requests against a real server once, writing each exchange to a
/// human-readable JSON fixture file, then answers them offline from those files.
///
/// ```swift
/// let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/auth")
/// let replay = ReplayTransport(fixtures: fixtures, mode: .fromEnvironment(default: .replay))
/// let service = AuthService(session: Session(transport: replay))
/// ```
/// Run once with `COURIER_FIXTURES=record-missing` (or `record` to re-record everything) against
/// the real server; commit the files; from then on the tests run offline, and a request
/// without a fixture fails with `CourierError.unhandledRequest` naming the
/// request and the file it looked for.
///
/// Requests are matched by a key: the method, the percent-encoded path, the query sorted by name,
/// and a hash of the body (of the JSON re-encoded with sorted keys when the body is JSON); not the
/// scheme, host, port nor headers. Each key has one file (``fixtureURL(for:)``, such as
/// `POST_auth-signin_5d1f0a9c.json`) holding the responses recorded
/// for it in order; replay answers them in the same order and repeats the last, so a sequence
/// such as 401 then 200 replays as it was recorded. Transport failures met while recording are
/// passed on and not written. Every request is recorded in ``requests``, as with ``StubTransport``.
public final class ReplayTransport: Transport {
    /// The directory holding the fixture files.
    package let directory: URL
    /// What this transport does with requests.
    package let mode: ReplayMode
    private let live: (any Transport)?
    /// The engine-backed session used for recording when no live transport was given.
    private let liveSession = Locked<Session?>(nil)

    private struct State {
        var requests: [RecordedRequest] = []
        /// Fixtures read from disk or written in this run.
        var fixtures: [FixtureKey: Fixture] = [:]
        /// Keys recorded in this run: their files were rewritten, so further exchanges append.
        var recorded: Set<FixtureKey> = []
        /// How many responses of each key were replayed.
        var served: [FixtureKey: Int] = [:]
    }

    private let state = Locked(State())

    /// Creates a transport over the fixtures in `directory` (created when recording).
    /// - Parameters:
    ///   - directory: where the fixture files are (one per request key).
    ///   - mode: replay only, record everything, or record what has no fixture yet.
    ///   - live: where recorded requests go; by default a libcurl engine of its own, started
    ///     the first time a request is recorded (never in `.replay` mode).
    public init(fixtures directory: URL, mode: ReplayMode = .fromEnvironment(), live: (any Transport)? = nil) {
        self.directory = directory
        self.mode = mode
        self.live = live
    }

    /// Every request received, in call order.
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// The file that holds (or would hold) the fixture for `request`.
    public func fixtureURL(for request: HTTPRequest) -> URL {
        directory.appendingPathComponent(FixtureKey(request).fileName)
    }

    // MARK: Transport

    /// Answers from the fixture or records a live exchange, depending on the mode.
    public func execute(
        _ request: HTTPRequest, options: TransferOptions,
        completion: @escaping @Sendable (TransportResult) -> Void
    ) -> any TransportCancellable {
        let key = FixtureKey(request)
        let (recorded, step) = state.withLock { state -> (RecordedRequest, Step) in
            let recorded = RecordedRequest(
                request, target: options.target, index: state.requests.count,
                security: options.security)
            state.requests.append(recorded)
            return (recorded, nextStep(for: key, in: &state))
        }
        switch step {
        case .replay(let response):
            return answer(request, options: options, with: response, completion: completion)
        case .unreadable(let problem):
            let reason =
                "the fixture for this request cannot be read (ReplayTransport):\n\(recorded)\n"
                + "file: \(fixtureURL(for: request).path)\n\(problem)"
            return answer(
                request, options: options, with: .failure(.unhandledRequest(reason: reason)),
                completion: completion)
        case .live where mode == .replay:
            let redactor = Redactor(
                security: options.security, authorization: .declared(by: options.target))
            let reason =
                "no fixture for this request (ReplayTransport, replay mode):\n\(recorded)\n"
                + "key: \(redactor.text(key.description))\nexpected file: \(fixtureURL(for: request).path)\n"
                + "record it with mode .recordMissing or COURIER_FIXTURES=record-missing"
            return answer(
                request, options: options, with: .failure(.unhandledRequest(reason: reason)),
                completion: completion)
        case .live:
            return liveTransport().execute(request, options: options) { result in
                // Off the engine thread: writing a file must not stall other transfers.
                DispatchQueue.global().async {
                    if let failure = self.store(result, for: request, key: key, options: options) {
                        completion(TransportResult(request: request, error: .unhandledRequest(reason: failure)))
                    } else {
                        completion(result)
                    }
                }
            }
        }
    }

    /// What to do with a request.
    private enum Step {
        /// Answer with this recorded response.
        case replay(StubResponse)
        /// Send it to the server (or, in replay mode, fail: there is no fixture).
        case live
        /// The fixture file exists but is not a valid fixture.
        case unreadable(String)
    }

    private func nextStep(for key: FixtureKey, in state: inout State) -> Step {
        if mode == .record || state.recorded.contains(key) { return .live }
        if state.fixtures[key] == nil {
            let file = directory.appendingPathComponent(key.fileName)
            guard FileManager.default.fileExists(atPath: file.path) else { return .live }
            do {
                state.fixtures[key] = try Fixture.decode(Data(contentsOf: file))
            } catch {
                return .unreadable("\(error)")
            }
        }
        guard let fixture = state.fixtures[key], let last = fixture.responses.last else {
            return .unreadable("it holds no responses")
        }
        let index = state.served[key, default: 0]
        state.served[key] = index + 1
        let response = index < fixture.responses.count ? fixture.responses[index] : last
        return .replay(
            StubResponse(
                statusCode: response.status, headers: response.httpHeaders,
                body: response.storedBody))
    }

    private func answer(
        _ request: HTTPRequest, options: TransferOptions, with response: StubResponse,
        completion: @escaping @Sendable (TransportResult) -> Void
    ) -> any TransportCancellable {
        let call = StubCall(request: request, options: options, completion: completion)
        DispatchQueue.global().async { call.answer(with: response) }
        return call
    }

    private func liveTransport() -> any Transport {
        if let live { return live }
        return liveSession.withLock { session in
            let made = session ?? Session()
            session = made
            return made.transport
        }
    }

    /// Appends the exchange to its fixture (starting the file afresh the first time this run
    /// records the key) and writes the file. Failures are not recorded. Returns why the file
    /// could not be written, if it could not.
    private func store(
        _ result: TransportResult, for request: HTTPRequest, key: FixtureKey,
        options: TransferOptions
    ) -> String? {
        guard result.error == nil, result.statusCode != nil else { return nil }
        var body = result.data
        if let destination = options.destination, let written = try? Data(contentsOf: destination) {
            body = written
        }
        let response = Fixture.response(from: result, body: body, security: options.security)
        return state.withLock { state in
            var fixture = Fixture(
                request: request, key: key, security: options.security,
                authorization: .declared(by: options.target))
            if state.recorded.contains(key), let earlier = state.fixtures[key] { fixture = earlier }
            fixture.responses.append(response)
            state.fixtures[key] = fixture
            state.recorded.insert(key)
            return write(fixture, for: key)
        }
    }

    private func write(_ fixture: Fixture, for key: FixtureKey) -> String? {
        let file = directory.appendingPathComponent(key.fileName)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try fixture.encoded().write(to: file, options: .atomic)
            return nil
        } catch {
            return "the response to \(key) arrived but its fixture could not be written to \(file.path): \(error)"
        }
    }
}
