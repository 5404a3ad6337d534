import Courier
import CourierTestServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Security defaults: downgrade redirects, size limits, redirect targets.
extension FaultMatrix {
    static let security: [FaultCase] = [
        downgrade("https to http redirect is refused", status: 302),
        downgradeWithBody,
        downgradeAllowed,
        .path(
            "decompression bomb stops at the default limit", "/deflate-bomb?size=\(100 << 20)",
            expect: .error(.responseTooLarge(limit: SecurityPolicy.defaultMaxResponseSize))),
        .path(
            "declared length over the limit", "/bytes?size=5000",
            expect: .error(.responseTooLarge(limit: 1000)), configure: { $0.security.maxResponseSize = 1000 }),
        .path(
            "chunked body over the limit", "/chunked?chunks=10&size=200",
            expect: .error(.responseTooLarge(limit: 1000)), configure: { $0.security.maxResponseSize = 1000 }),
        .path(
            "redirect to a file URL is refused", "/redirect?to=file:///etc/passwd",
            expect: .error(.redirectRefused(location: "file:///etc/passwd"))),
        .path(
            "redirect chain over the limit", "/redirect-chain?n=5",
            expect: .error(.tooManyRedirects(limit: 2)), configure: { $0.redirectPolicy = .follow(max: 2) })
    ]

    /// The TLS nginx redirects to the plain-http test server.
    private static func downgrade(_ name: String, status: Int) -> FaultCase {
        FaultCase(
            name: name, expectation: .errorCase("insecureRedirect", containing: "http://127.0.0.1:"),
            needsTLS: true
        ) { bench in
            let target = bench.server.url("/echo").absoluteString
            let response = await bench.session().request(
                .url("\(bench.tls?.url ?? "")/redirect-\(status)?to=\(target)")
            )
            .response()
            if !bench.server.recordedRequests(path: "/echo").isEmpty {
                return .broken("the plain-http server was contacted")
            }
            return FaultOutcome(response)
        }
    }

    /// A 307 keeps method and body: the card number must never go out in cleartext.
    private static let downgradeWithBody = FaultCase(
        name: "https to http 307 never re-sends a POST body in cleartext",
        expectation: .errorCase("insecureRedirect", containing: "/card"), needsTLS: true
    ) { bench in
        let target = bench.server.url("/card").absoluteString
        var request = URLRequest(url: URL(string: "\(bench.tls?.url ?? "")/redirect-307?to=\(target)")!)
        request.httpMethod = "POST"
        request.httpBody = Data("card=4111111111111111".utf8)
        let response = await bench.session().request(.urlRequest(request)).response()
        if !bench.server.recordedRequests(path: "/card").isEmpty { return .broken("the POST body went out over http") }
        return FaultOutcome(response)
    }

    /// Opting in follows the redirect, without the secret headers.
    private static let downgradeAllowed = FaultCase(
        name: "https to http redirect followed when allowed, secrets dropped",
        expectation: .success(status: 200), needsTLS: true
    ) { bench in
        let target = bench.server.url("/allowed-downgrade").absoluteString
        bench.server.route("/allowed-downgrade") { request in
            .text(request.header("X-Api-Key") == nil && request.header("Authorization") == nil ? "clean" : "leaked")
        }
        var request = URLRequest(url: URL(string: "\(bench.tls?.url ?? "")/redirect-302?to=\(target)")!)
        request.setValue("k", forHTTPHeaderField: "X-Api-Key")
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        let response = await bench.session { $0.security.allowsInsecureRedirects = true }.request(.urlRequest(request))
            .response()
        if let body = response.data, String(decoding: body, as: UTF8.self) != "clean" {
            return .broken("secret headers crossed to http")
        }
        return FaultOutcome(response)
    }
}
