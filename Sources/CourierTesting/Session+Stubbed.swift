import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// A session that never touches the network: `responder` answers every request.
    ///
    /// Everything above the transport runs as usual — default headers, validation, serializers,
    /// services and `NetworkResult` mapping, cancellation — so tests exercise the real pipeline:
    /// ```swift
    /// let session = Session.stubbed { request in
    ///     request.url.path == "/auth/signin"
    ///         ? .json(#"{"status":409,"success":false,"message":"wrong password"}"#, statusCode: 409)
    ///         : .empty(statusCode: 404)
    /// }
    /// ```
    /// `responder` runs on the thread that starts the request (or its retry), once per attempt.
    /// For stubs per router case or matcher, sequences, sample data and recording, use a
    /// ``StubTransport``: `Session(transport: stubs)`.
    public static func stubbed(
        configuration: Configuration = Configuration(),
        _ responder: @escaping @Sendable (HTTPRequest) -> StubResponse
    ) -> Session {
        let stubs = StubTransport(sampleData: false) { responder($0.request) }
        return Session(configuration: configuration, transport: stubs)
    }
}
