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

    /// The profile of `options` as they stand (a download's or a streamed response's, whose size
    /// limit differs from the session's).
    convenience init(_ options: TransferOptions) {
        self.init(
            Settings(
                connectTimeout: options.connectTimeout, automaticDecompression: options.automaticDecompression,
                tls: options.tls, proxy: options.proxy, maxHTTPVersion: options.maxHTTPVersion,
                tcpKeepAlive: options.tcpKeepAlive, receiveBufferSize: options.receiveBufferSize,
                bodyLimit: options.bodyLimit))
    }

    /// The profile of a session's fields with the size limit `bodyLimit`.
    convenience init(_ fields: SharedTransferOptions.Fields, bodyLimit: Int?) {
        self.init(
            Settings(
                connectTimeout: fields.connectTimeout, automaticDecompression: fields.automaticDecompression,
                tls: fields.tls, proxy: fields.proxy, maxHTTPVersion: fields.maxHTTPVersion,
                tcpKeepAlive: fields.tcpKeepAlive, receiveBufferSize: fields.receiveBufferSize,
                bodyLimit: bodyLimit))
    }

    private init(_ settings: Settings) {
        self.settings = settings
    }

    /// True when a handle configured with `self` has the options of `other`.
    func matches(_ other: HandleProfile) -> Bool {
        self === other || settings == other.settings
    }
}
