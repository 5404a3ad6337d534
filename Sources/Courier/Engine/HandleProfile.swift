import Foundation

/// The session-level options set on an easy handle (see CurlTransfer+Configure.swift): a pooled
/// handle configured with a matching profile is not configured again.
///
/// A session builds its profile once, with its base options (``TransferOptions/handleProfile``),
/// so the requests of one session carry the same object and the engine matches a pooled handle by
/// identity; two profiles built apart match when their settings are equal.
final class HandleProfile: Sendable {
    /// The session's options that an easy handle is configured with once (a part of
    /// ``SharedTransferOptions/Fields``).
    struct Options: Equatable, Sendable {
        var connectTimeout: TimeInterval?
        var automaticDecompression: Bool
        var tls: Session.TLSConfiguration
        var proxy: Session.Proxy
        var maxHTTPVersion: HTTPVersion
        var tcpKeepAlive: Bool
        var receiveBufferSize: Int?
    }

    /// The option values themselves: the session's, and the body size limit that applies.
    struct Settings: Equatable {
        var options: Options
        var bodyLimit: Int?
    }

    let settings: Settings

    /// The profile of `options` with the size limit `bodyLimit`.
    init(_ options: Options, bodyLimit: Int?) {
        settings = Settings(options: options, bodyLimit: bodyLimit)
    }

    /// The profile of transfer options as they stand (a download's or a streamed response's,
    /// whose size limit differs from the session's).
    convenience init(_ options: TransferOptions) {
        self.init(options.handleOptions, bodyLimit: options.bodyLimit)
    }

    /// True when a handle configured with `self` has the options of `other`.
    func matches(_ other: HandleProfile) -> Bool {
        self === other || settings == other.settings
    }
}
