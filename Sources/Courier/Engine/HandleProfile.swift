import Foundation

/// The session-level options set on an easy handle (see CurlTransfer+Configure.swift): a pooled
/// handle configured with a matching profile is not configured again.
///
/// A session builds its profile once, with its base options (``TransferOptions/handleProfile``),
/// so the requests of one session carry the same object and the engine matches a pooled handle by
/// identity; two profiles built apart match when their settings are equal.
final class HandleProfile: Sendable {
    /// The option values themselves.
    struct Settings: Equatable {
        var connectTimeout: TimeInterval?
        var automaticDecompression: Bool
        var tls: Session.TLSConfiguration
        var proxy: Session.Proxy
        var maxHTTPVersion: HTTPVersion
        var tcpKeepAlive: Bool
        var receiveBufferSize: Int?
        var bodyLimit: Int?
    }

    let settings: Settings

    init(_ options: TransferOptions) {
        settings = Settings(
            connectTimeout: options.connectTimeout, automaticDecompression: options.automaticDecompression,
            tls: options.tls, proxy: options.proxy, maxHTTPVersion: options.maxHTTPVersion,
            tcpKeepAlive: options.tcpKeepAlive, receiveBufferSize: options.receiveBufferSize,
            bodyLimit: options.bodyLimit)
    }

    /// True when a handle configured with `self` has the options of `other`.
    func matches(_ other: HandleProfile) -> Bool {
        self === other || settings == other.settings
    }
}

extension TransferOptions {
    /// The options a pooled easy handle keeps from one plain transfer to the next: the profile
    /// built with the session's options when none of its fields changed since, else a new one.
    var handleProfile: HandleProfile {
        cachedProfile ?? HandleProfile(self)
    }

    /// These options with their handle profile built once (see ``Session``'s base options).
    func withCachedProfile() -> TransferOptions {
        var options = self
        options.cachedProfile = HandleProfile(self)
        return options
    }
}
