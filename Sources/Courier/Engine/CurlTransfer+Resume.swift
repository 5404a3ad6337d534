import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Resumable downloads: where a resumed body goes, and the resume data of a download that
/// stopped part-way. Loop thread only.
extension CurlTransfer {
    /// For a resumed download, at the final response's head: a 206 from the kept offset is
    /// appended; any other answer (the server ignored the range, or `If-Range` did not match)
    /// replaces the file. A 206 from elsewhere is refused (returns false).
    func placeResumedBody() -> Bool {
        guard let flow, let offset = token.options.resumeOffset, fileDescriptor >= 0 else { return true }
        guard flow.finalStatus == 206 else {
            rewindDestination(to: 0)
            flow.downloadBase = 0
            return true
        }
        let range = headParser.fields.last(named: "Content-Range")
        guard let range, let start = Self.contentRangeStart(range), start == offset, !flow.contentEncoded else {
            flow.failure = .protocolViolation(
                message: "asked to resume at byte \(offset), the server sent Content-Range '\(range ?? "")'")
            return false
        }
        flow.downloadBase = offset
        return true
    }

    /// The first byte of `bytes A-B/N`.
    static func contentRangeStart(_ value: String) -> Int64? {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes "),
            let dash = text.firstIndex(of: "-")
        else { return nil }
        return Int64(text[text.index(text.startIndex, offsetBy: 6)..<dash].trimmingCharacters(in: .whitespaces))
    }

    /// Resume data for a download that ended with `error` after writing part of its body, when
    /// the response can be asked for again from there (it had a validator and was not
    /// content-encoded); nil otherwise (the partial file is then removed).
    func resumeData(after error: CourierError) -> ResumeData? {
        guard let flow, let destination = token.options.destination else { return nil }
        let url = request.url
        if !flow.receivingBody, let offset = token.options.resumeOffset, ResumeData.isResumable(after: error),
            let validator = request.headers["If-Range"]
        {
            // A resumption that failed before any new body arrived: the kept bytes are still good.
            return ResumeData(
                url: url, fileURL: destination, bytesWritten: offset, validator: validator, totalBytes: nil)
        }
        guard flow.receivingBody,
            flow.finalStatus == 200 || flow.finalStatus == 206, !flow.contentEncoded,
            let validator = flow.validator, ResumeData.isResumable(after: error), fileWriteError == 0
        else { return nil }
        let written = flow.downloadBase + Int64(receivedBodyBytes)
        let total = flow.downloadTotal.map { flow.downloadBase + $0 }
        guard written > 0, total.map({ written < $0 }) ?? true else { return nil }
        return ResumeData(
            url: url, fileURL: destination, bytesWritten: written, validator: validator, totalBytes: total)
    }
}
