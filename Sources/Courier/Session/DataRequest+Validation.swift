import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Validation: checks run when the response arrives, before any handler (or plugin's `process`)
/// sees it.
extension DataRequest {
    // MARK: Validation

    /// Decides whether a response is acceptable; return a failure to turn it into an error.
    package typealias Validation =
        @Sendable (_ request: HTTPRequest?, _ head: HTTPResponseHead, _ data: Data?)
        -> Result<Void, CourierError>

    /// A validation step: a built-in check or a custom closure.
    enum Validator: Sendable {
        /// ``validate()``: a 2xx status (no closure to allocate on every request).
        case successStatus
        case statusCode(@Sendable (Int) -> Bool)
        case contentType([String])
        case custom(Validation)

        func check(_ outcome: Outcome, head: ResponseHead) -> CourierError? {
            switch self {
            case .successStatus:
                return (200..<300).contains(head.statusCode) ? nil : .unacceptableStatusCode(head.statusCode)
            case .statusCode(let accepts):
                return accepts(head.statusCode) ? nil : .unacceptableStatusCode(head.statusCode)
            case .contentType(let acceptable):
                return Self.check(
                    contentType: head.value(forHeader: "Content-Type"), of: outcome.body,
                    against: acceptable)
            case .custom(let validation):
                if case .failure(let error) = validation(outcome.request, HTTPResponseHead(head), outcome.data) {
                    return error
                }
                return nil
            }
        }

        /// `type/subtype`, `type/*` and `*/*` patterns; an empty body passes.
        static func check(contentType received: String?, of data: Data, against acceptable: [String]) -> CourierError? {
            guard !data.isEmpty else { return nil }
            let mime = received?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            let parts = mime.split(separator: "/")
            for pattern in acceptable.map({ $0.lowercased() }) {
                let wanted = pattern.split(separator: "/")
                guard wanted.count == 2, parts.count == 2 else { continue }
                if (wanted[0] == "*" || wanted[0] == parts[0]) && (wanted[1] == "*" || wanted[1] == parts[1]) {
                    return nil
                }
            }
            return .unacceptableContentType(received)
        }
    }

    /// Adds a validation run when the response arrives, before any handler sees it. It runs in
    /// the awaiting task or on the completion handler's queue, never on the engine thread.
    /// `validation` decides whether the response is acceptable: return a failure to turn it into
    /// an error.
    @discardableResult
    public func validate(
        _ validation:
            @escaping @Sendable (_ request: HTTPRequest?, _ head: HTTPResponseHead, _ data: Data?)
            -> Result<Void, CourierError>
    ) -> Self {
        addValidator(.custom(validation))
        return self
    }

    /// Accepts only status codes in `acceptable`; others fail with ``CourierError/unacceptableStatusCode``.
    @discardableResult
    public func validate<S: Sequence & Sendable>(statusCode acceptable: S) -> Self where S.Element == Int {
        addValidator(.statusCode({ acceptable.contains($0) }))
        return self
    }

    /// Accepts only responses whose `Content-Type` matches one of `acceptable` (`type/subtype`,
    /// `type/*` or `*/*`). An empty body passes.
    @discardableResult
    public func validate(contentType acceptable: [String]) -> Self {
        addValidator(.contentType(acceptable))
        return self
    }

    /// Accepts only 2xx status codes.
    @discardableResult
    public func validate() -> Self {
        addValidator(.successStatus)
        return self
    }

    /// Gives `outcome` the first validation failure as its error (in place: an outcome is large,
    /// and most pass).
    func validate(_ outcome: inout Outcome, by validators: SmallList<Validator>) {
        guard !validators.isEmpty, case .success = outcome.result, let head = outcome.responseHead else { return }
        for validator in validators {
            if let error = validator.check(outcome, head: head) {
                outcome.fail(error)
                return
            }
        }
    }
}
