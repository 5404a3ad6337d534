import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What to do with a 3xx response: a pure function of the request, the response and the policy.
enum RedirectDecision: Equatable {
    /// Send this next request.
    case follow(HTTPRequest)
    /// Hand the 3xx response to the caller as it is.
    case deliver
    /// Stop with this error.
    case fail(CourierError)

    static func decide(
        current: HTTPRequest,
        status: Int,
        location: String?,
        redirectsSoFar: Int,
        policy: Session.RedirectPolicy,
        security: SecurityPolicy
    ) -> RedirectDecision {
        guard willFollow(status: status, location: location, policy: policy), let location,
            case .follow(let maximum) = policy
        else { return .deliver }
        guard redirectsSoFar < maximum else { return .fail(.tooManyRedirects(limit: maximum)) }
        let base = current.url
        // An error names the target with the values of secret query keys redacted (the redactor
        // is made only for an error: a followed redirect needs none).
        func shown(_ url: URL?) -> String {
            let redactor = Redactor(security: security)
            return url.map { redactor.url($0) } ?? redactor.text(location)
        }
        guard let target = URL(string: location, relativeTo: base)?.absoluteURL else {
            return .fail(.redirectRefused(location: shown(URL(string: location))))
        }
        guard SecurityPolicy.allowsScheme(target.scheme), let scheme = target.scheme?.lowercased(), target.host != nil
        else {
            return .fail(.redirectRefused(location: shown(URL(string: location))))
        }
        if base.scheme?.lowercased() == "https", scheme == "http", !security.allowsInsecureRedirects {
            return .fail(.insecureRedirect(location: shown(target)))
        }
        var next = current
        next.url = target
        let method = current.method.rawValue.uppercased()
        let becomesGet = status == 303 ? method != "HEAD" : ((status == 301 || status == 302) && method == "POST")
        if becomesGet {
            next.method = .get
            next.body = .none
            next.headers.remove(name: "Content-Type")
            next.headers.remove(name: "Content-Length")
        }
        if !sameOrigin(base, target) {
            for header in current.headers where security.isSecret(header: header.name) {
                next.headers.remove(name: header.name)
            }
        }
        return .follow(next)
    }

    /// The statuses that redirect: 301, 302, 303, 307 and 308 (not 300, 304, 305 or 306).
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Whether a response with this status and `Location` is followed under `policy`, or handed
    /// to the caller (or, past the limit or to a refused target, fails): the one place that
    /// decides it, for ``decide(current:status:location:redirectsSoFar:policy:security:)`` and for
    /// the engine, which discards the body of a response it will follow.
    static func willFollow(status: Int, location: String?, policy: Session.RedirectPolicy) -> Bool {
        guard redirectStatuses.contains(status), let location, !location.isEmpty, case .follow = policy else {
            return false
        }
        return true
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        let schemeA = a.scheme?.lowercased() ?? "", schemeB = b.scheme?.lowercased() ?? ""
        return schemeA == schemeB
            && (a.host?.lowercased() ?? "") == (b.host?.lowercased() ?? "")
            && effectivePort(a) == effectivePort(b)
    }

    private static func effectivePort(_ url: URL) -> Int {
        if let port = url.port { return port }
        return url.scheme?.lowercased() == "https" ? 443 : 80
    }
}
