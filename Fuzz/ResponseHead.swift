// libFuzzer target: response-head parsing, the engine's header callback (CurlTransfer's
// receiveHeaderLine), fed the lines libcurl would hand it. Checks that it never traps, that the
// status code is three digits or untouched, that every field has a name and values carry no
// surrounding blanks; with `checksFieldHygiene`, also that names hold no whitespace, CR or LF
// and values no CR or LF.
@testable import Courier
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One engine for the whole run (its loop thread idles); transfers are never started.
private let engine = CurlEngine(maxConnectionsPerHost: 1, maxTotalConnections: 1)!
private let request = URLRequest(url: URL(string: "http://127.0.0.1/")!)
private let options = Session().transferOptions(for: request)
/// Off until obs-fold unfolding and bare-CR handling land (issue 9, point 4): today a folded
/// line becomes a field named " Set-Cookie" and a bare CR stays inside a name or value.
private let checksFieldHygiene = false

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let transfer = CurlTransfer(request: request, options: options, engine: engine) { _ in }
    // libcurl delivers one line per call, ending in LF (CRLF usually).
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
        var chunk = Array(line)
        chunk.append(0x0A)
        chunk.withUnsafeBytes { transfer.receiveHeaderLine($0) }
    }
    require(transfer.statusCode == 0 || (100...999).contains(transfer.statusCode), "status \(transfer.statusCode)")
    for (name, value) in transfer.responseHeaders {
        require(!name.isEmpty, "empty field name")
        require(!name.utf8.contains(0x0A) && !value.utf8.contains(0x0A), "LF inside a field")
        require(![0x20, 0x09].contains(value.utf8.first) && ![0x20, 0x09].contains(value.utf8.last),
                "value of \(name) not trimmed")
        if checksFieldHygiene {
            require(!name.utf8.contains { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }, "field name '\(name)'")
            require(!value.utf8.contains(0x0D), "CR in the value of \(name)")
        }
    }
    return 0
}
