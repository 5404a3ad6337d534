// The custom-envelope example of docs/services.md, compiled here and run by
// CustomEnvelopeTests; DocsTests checks that the docs show exactly this code.
// docs/services.md: custom envelope example begins
import Courier
import Foundation

/// `{"ok": true, "info": "…", "errorCode": "E42", "body": …}`
struct Wrapped<P: Decodable>: ResponseEnvelope {
    let ok: Bool
    let info: String  // non-optional: a body without "info" is a pathErr naming it
    let errorCode: String?  // a String code is kept as sent
    let body: P?

    var envelopeFields: EnvelopeFields<P> {
        EnvelopeFields(payload: body, message: info, isSuccessFlag: ok, code: errorCode, payloadKey: "body")
    }
}
extension Wrapped: Sendable where P: Sendable {}  // lets `.envelope` mode return a Wrapped<T>

enum WrappedEnvelope: EnvelopeFormat {
    static func open<P: Decodable>(
        _ data: Data, as payload: P.Type, decoder: any DataDecoder
    ) throws -> EnvelopeFields<P> {
        try decoder.decode(Wrapped<P>.self, from: data).envelopeFields
    }
}

final class WrappedService: BaseService, @unchecked Sendable {
    override class var envelope: any EnvelopeFormat.Type { WrappedEnvelope.self }
}
// docs/services.md: custom envelope example ends
