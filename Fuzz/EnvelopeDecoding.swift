// libFuzzer target: envelope decoding (EnvelopeReader with each standard EnvelopeFormat and
// DecodingMode), what BaseService runs on every response body. Checks that any body, valid JSON
// or not, gives a value or a typed rejection and never traps.
@testable import Courier
import Foundation

private struct Profile: Decodable { let id: Int; let name: String?; let tags: [String]? }

/// The standard formats, picked by a byte of the input (a function: an array of metatypes is not
/// `Sendable`, so it cannot be a global).
private func standardFormat(_ byte: UInt8) -> any EnvelopeFormat.Type {
    switch byte % 4 {
    case 0: StatusEnvelope.self
    case 1: ResultEnvelope.self
    case 2: SuccessErrorEnvelope.self
    default: NoEnvelope.self
    }
}
private let modes: [DecodingMode] = [.payload, .envelope, .message]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEnvelopeDecoding(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let format = standardFormat(data[0])
    let mode = modes[Int(data[0] / 8) % modes.count]
    let body = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let reader = EnvelopeReader(format: format, decoder: JSONDecoder())
    exercise(reader.value(of: Profile.self, from: body, mode: mode))
    exercise(reader.value(of: [String: Int].self, from: body, mode: mode))
    exercise(reader.value(of: String.self, from: body, mode: mode))
    exercise(reader.value(of: Empty.self, from: body, mode: mode))
    _ = reader.failureDetails(in: body)
    return 0
}

private func exercise<T>(_ result: Result<T, EnvelopeReader.Rejection>) {
    if case .failure(.undecodable(let error, _, _)) = result {
        switch error {
        case .decodingFailed: break
        default: fatalError("unexpected error \(error)")
        }
    }
}
