extension CourierError {
    /// The case's name (`timedOut`, `cancelled`, …), for logs.
    var kind: String {
        if let label = Mirror(reflecting: self).children.first?.label { return label }
        switch self {
        case .cancelled: return "cancelled"
        case .pinnedKeyMismatch: return "pinnedKeyMismatch"
        case .stringDecodingFailed: return "stringDecodingFailed"
        case .missingCredential: return "missingCredential"
        default: return "error"
        }
    }
}
