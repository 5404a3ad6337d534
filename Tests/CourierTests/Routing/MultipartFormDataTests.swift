import Foundation
import XCTest
@testable import Courier

/// `multipart/form-data` layout, MIME guessing and failure cases.
final class MultipartFormDataTests: XCTestCase {
    private var temporaryFiles: [URL] = []

    override func tearDown() {
        for url in temporaryFiles {
            try? FileManager.default.removeItem(at: url)
        }
        temporaryFiles = []
        super.tearDown()
    }

    private func makeFile(named name: String, contents: Data) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-mp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        temporaryFiles.append(directory)
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url)
        return url
    }

    func testGoldenBody() throws {
        let file = try makeFile(named: "notes.txt", contents: Data("file body".utf8))
        var form = MultipartFormData(boundary: "BOUNDARY-123")
        form.append("Ada Lovelace", name: "name")
        form.append(Data([0x89, 0x50]), name: "avatar", filename: "me.png")
        form.append(Data("raw".utf8), name: "blob")
        form.append(Data("{}".utf8), name: "meta", filename: nil, mimeType: "application/json")
        form.append(fileURL: file, name: "attachment")
        form.append(fileURL: file, name: "renamed", filename: "other.bin", mimeType: "text/csv")

        var expected = Data()
        expected.append(
            Data(
                """
                --BOUNDARY-123\r
                Content-Disposition: form-data; name="name"\r
                \r
                Ada Lovelace\r
                --BOUNDARY-123\r
                Content-Disposition: form-data; name="avatar"; filename="me.png"\r
                Content-Type: image/png\r
                \r\n
                """.utf8))
        expected.append(Data([0x89, 0x50]))
        expected.append(
            Data(
                """
                \r
                --BOUNDARY-123\r
                Content-Disposition: form-data; name="blob"\r
                \r
                raw\r
                --BOUNDARY-123\r
                Content-Disposition: form-data; name="meta"\r
                Content-Type: application/json\r
                \r
                {}\r
                --BOUNDARY-123\r
                Content-Disposition: form-data; name="attachment"; filename="notes.txt"\r
                Content-Type: text/plain\r
                \r
                file body\r
                --BOUNDARY-123\r
                Content-Disposition: form-data; name="renamed"; filename="other.bin"\r
                Content-Type: text/csv\r
                \r
                file body\r
                --BOUNDARY-123--\r\n
                """.utf8))
        XCTAssertEqual(form.count, 6)
        XCTAssertEqual(form.contentType, "multipart/form-data; boundary=BOUNDARY-123")
        XCTAssertEqual(try form.encode(), expected)
    }

    func testEmptyFormIsJustTheCloseDelimiter() throws {
        XCTAssertEqual(try MultipartFormData(boundary: "b").encode(), Data("--b--\r\n".utf8))
    }

    func testQuotesAndLineBreaksInNamesAreEscaped() throws {
        var form = MultipartFormData(boundary: "b")
        form.append("v", name: "a\"b\r\nContent-Type: evil")
        form.append(Data(), name: "f", filename: "x\".txt")
        let text = String(decoding: try form.encode(), as: UTF8.self)
        XCTAssertEqual(
            text,
            "--b\r\nContent-Disposition: form-data; name=\"a%22b%0D%0AContent-Type: evil\"\r\n\r\nv\r\n"
                + "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x%22.txt\"\r\nContent-Type: text/plain\r\n\r\n\r\n"
                + "--b--\r\n")
    }

    /// Found by the Multipart fuzz target: a CR or LF followed by a combining mark slipped past
    /// the escaping (and a quote followed by one stayed raw), so a name could start a new header line.
    func testLineBreaksAndQuotesBeforeCombiningMarksAreEscaped() throws {
        var form = MultipartFormData(boundary: "b")
        form.append("v", name: "a\r\u{742}\n\u{742}Content-Type: evil")
        form.append(Data(), name: "f", filename: "x\"\u{301}.txt", mimeType: "text/plain\r\u{742}\nX-Evil: 1")
        let text = String(decoding: try form.encode(), as: UTF8.self)
        XCTAssertEqual(
            text,
            "--b\r\nContent-Disposition: form-data; name=\"a%0D\u{742}%0A\u{742}Content-Type: evil\"\r\n\r\nv\r\n"
                + "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x%22\u{301}.txt\"\r\n"
                + "Content-Type: text/plain\u{742}X-Evil: 1\r\n\r\n\r\n--b--\r\n")
    }

    /// Found by the Multipart fuzz target: taking the line break out of a type can put the
    /// delimiter's text inside a header line, but never at the start of a line, where a reader
    /// would take it for a delimiter.
    func testALineBreakTakenOutOfATypeNeverStartsALineWithTheDelimiter() throws {
        var form = MultipartFormData(boundary: "a")
        form.append(Data("x".utf8), name: "f", filename: nil, mimeType: "-\r\n-a")
        let text = String(decoding: try form.encode(), as: UTF8.self)
        XCTAssertEqual(
            text,
            "--a\r\nContent-Disposition: form-data; name=\"f\"\r\nContent-Type: --a\r\n\r\nx\r\n--a--\r\n")
        let lines = text.components(separatedBy: "\r\n")
        XCTAssertEqual(lines.filter { $0.hasPrefix("--a") }, ["--a", "--a--"])
    }

    /// Found by the Multipart fuzz target: Foundation's NSString.pathExtension traps on a file
    /// name with a CR LF before slashes, and guessing the type used it.
    func testTypeGuessingSurvivesAnyFilename() throws {
        var form = MultipartFormData(boundary: "b")
        form.append(Data(), name: "a", filename: "///////////\r\n//")
        form.append(Data(), name: "b", filename: "dir.d/photo.PNG")
        form.append(Data(), name: "c", filename: ".hidden")
        form.append(Data(), name: "d", filename: "archive.tar.gz/")
        let text = String(decoding: try form.encode(), as: UTF8.self)
        XCTAssertEqual(
            text.components(separatedBy: "Content-Type: ").dropFirst().map { $0.components(separatedBy: "\r\n")[0] },
            ["application/octet-stream", "image/png", "application/octet-stream", "application/gzip"])
    }

    func testRandomBoundariesDifferAndAreValid() throws {
        let first = MultipartFormData()
        let second = MultipartFormData()
        XCTAssertNotEqual(first.boundary, second.boundary)
        XCTAssertTrue(first.boundary.hasPrefix("courier.boundary."))
        XCTAssertEqual(first.boundary.count, "courier.boundary.".count + 16)
        XCTAssertNoThrow(try first.encode())
    }

    func testBoundariesWithSpecialCharactersAreQuotedInTheHeader() throws {
        // RFC 2046 allows `'()+_,-./:=?` and inner spaces in a boundary; RFC 2045 needs the
        // parameter quoted when it holds any of `(),/:=?` or a space.
        let token = "simple-1_2.3+'x"
        XCTAssertEqual(MultipartFormData(boundary: token).contentType, "multipart/form-data; boundary=\(token)")
        for boundary in ["a b", "a:b", "x=y", "(c)", "a,b", "a/b", "a?b", "courier boundary:1"] {
            var form = MultipartFormData(boundary: boundary)
            form.append("v", name: "k")
            XCTAssertEqual(form.contentType, "multipart/form-data; boundary=\"\(boundary)\"", boundary)
            XCTAssertTrue(String(decoding: try form.encode(), as: UTF8.self).hasPrefix("--\(boundary)\r\n"), boundary)
        }
    }

    func testInvalidBoundaryThrows() {
        for boundary in [
            "", String(repeating: "x", count: 71), "bad\r\nboundary", "trailing ", "semi;colon", "tilde~", "quote\"d",
            "back\\slash"
        ] {
            XCTAssertThrowsError(try MultipartFormData(boundary: boundary).encode(), boundary) { error in
                guard error as? CourierError == .multipartEncodingFailed else { return XCTFail("\(error)") }
            }
        }
    }

    func testMissingFileThrows() {
        var form = MultipartFormData(boundary: "b")
        form.append(fileURL: URL(fileURLWithPath: "/nonexistent/courier/file.png"), name: "f")
        XCTAssertThrowsError(try form.encode()) { error in
            XCTAssertSameError(
                error as? CourierError,
                .multipartEncodingFailed(
                    reason: "cannot read file '/nonexistent/courier/file.png': it does not exist or is not accessible"))
        }
    }

    func testDirectoryAndNonFileURLThrow() throws {
        var directoryForm = MultipartFormData(boundary: "b")
        directoryForm.append(fileURL: FileManager.default.temporaryDirectory, name: "dir")
        XCTAssertThrowsError(try directoryForm.encode())
        var remoteForm = MultipartFormData(boundary: "b")
        remoteForm.append(fileURL: try XCTUnwrap(URL(string: "https://x.test/a.png")), name: "remote")
        XCTAssertThrowsError(try remoteForm.encode()) { error in
            XCTAssertSameError(
                error as? CourierError, .multipartEncodingFailed(reason: "'https://x.test/a.png' is not a file URL"))
        }
    }

    func testMemoryThresholdForDataAndFiles() throws {
        var form = MultipartFormData(boundary: "b", memoryThreshold: 100)
        form.append(Data(count: 101), name: "big")
        XCTAssertThrowsError(try form.encode()) { error in
            XCTAssertSameError(
                error as? CourierError,
                .multipartEncodingFailed(reason: "the body exceeds the in-memory limit of 100 bytes"))
        }
        let file = try makeFile(named: "big.bin", contents: Data(count: 500))
        var fileForm = MultipartFormData(boundary: "b", memoryThreshold: 200)
        fileForm.append(fileURL: file, name: "f")
        XCTAssertThrowsError(try fileForm.encode()) { error in
            XCTAssertSameError(
                error as? CourierError,
                .multipartEncodingFailed(
                    reason: "file '\(file.path)' (500 bytes) does not fit in the in-memory limit"))
        }
        XCTAssertEqual(MultipartFormData.defaultMemoryThreshold, 64 * 1024 * 1024)
        var fits = MultipartFormData(boundary: "b", memoryThreshold: 59)
        fits.append("x", name: "n")
        XCTAssertEqual(try fits.encode().count, 59)
        fits.memoryThreshold = 58
        XCTAssertThrowsError(try fits.encode())
    }

    func testMIMEGuessing() {
        let table = [
            "jpg": "image/jpeg", "JPEG": "image/jpeg", "png": "image/png", "gif": "image/gif", "pdf": "application/pdf",
            "json": "application/json", "txt": "text/plain", "mp4": "video/mp4", "zip": "application/zip",
            "heic": "image/heic", "csv": "text/csv", "unknownext": "application/octet-stream",
            "": "application/octet-stream"
        ]
        for (ext, type) in table {
            XCTAssertEqual(MIMEType.forExtension(ext), type, ext)
        }
    }
}
