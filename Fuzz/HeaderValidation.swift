// libFuzzer target: request header validation (HTTPHeader.validate, HTTPHeaders.validate), run
// on every request before it reaches libcurl. Compares with RFC 9110 written independently: a
// name is one or more tchar, a value holds no CR, LF or NUL. Failures must be typed and name
// the offending header.
@testable import Courier
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHeaderValidation(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var headers: [HTTPHeader] = []
    for _ in 0..<input.int(in: 1...4) {
        headers.append(HTTPHeader(name: input.string(maxCount: 12), value: input.string(maxCount: 32)))
    }
    for header in headers {
        check(header.name, { try header.validate() }, expectValid: isValid(header))
    }
    // A repeated name replaces the earlier value in place, so the collection is what is checked.
    let collection = HTTPHeaders(headers)
    let firstInvalid = collection.first { !isValid($0) }
    check(firstInvalid?.name ?? "", { try collection.validate() }, expectValid: firstInvalid == nil)
    return 0
}

private func check(_ name: String, _ validate: () throws -> Void, expectValid: Bool) {
    do {
        try validate()
        require(expectValid, "invalid header '\(name)' accepted")
    } catch let error as CourierError {
        guard case let failure_ = error, failure_ == .invalidHeader, let reported = failure_.subject else {
            fatalError("unexpected error \(error)")
        }
        require(!expectValid, "valid header '\(name)' refused: \(error)")
        require(reported == name, "error names '\(reported)', the bad header is '\(name)'")
    } catch {
        fatalError("untyped error \(error)")
    }
}

private func isValid(_ header: HTTPHeader) -> Bool {
    let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    return !header.name.isEmpty && header.name.utf8.allSatisfy(tchar.contains)
        && !header.value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
}
