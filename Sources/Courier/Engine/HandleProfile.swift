import Foundation

/// The session-level options set on an easy handle (see CurlTransfer+Configure.swift): a pooled
/// handle configured with an equal profile is not configured again.
struct HandleProfile: Equatable {
    var connectTimeout: TimeInterval?
    var automaticDecompression: Bool
    var tls: Session.TLSConfiguration
    var proxy: Session.Proxy
    var httpVersion: Session.HTTPVersion
    var tcpKeepAlive: Bool
    var receiveBufferSize: Int?
    var bodyLimit: Int?
}

extension TransferOptions {
    /// The options a pooled easy handle keeps from one plain transfer to the next.
    var handleProfile: HandleProfile {
        HandleProfile(
            connectTimeout: connectTimeout, automaticDecompression: automaticDecompression, tls: tls,
            proxy: proxy, httpVersion: httpVersion, tcpKeepAlive: tcpKeepAlive,
            receiveBufferSize: receiveBufferSize, bodyLimit: bodyLimit)
    }
}
