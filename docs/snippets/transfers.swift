// Declarations docs/transfers.md takes for granted.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let session = Session()
let videoURL = URL(fileURLWithPath: "/tmp/video.mp4")
let photoURL = URL(fileURLWithPath: "/tmp/photo.jpg")
let archive = URL(fileURLWithPath: "/tmp/backup.tar")
let bigFile = URL(fileURLWithPath: "/tmp/big.bin")
let uploadURL = URL(string: "https://example.com/upload")!
let csv = Data("a,b\n1,2\n".utf8)

struct Receipt: Decodable, Sendable { let id: String }

enum MediaAPI: Router {
    case upload
    var baseURL: String { "https://media.example.com" }
    var path: String { "/videos" }
    var method: HTTPMethod { .post }
}

enum IngestAPI: Router {
    case events
    var baseURL: String { "https://ingest.example.com" }
    var path: String { "/events" }
    var method: HTTPMethod { .post }
}

enum PhotosAPI: Router {
    case create
    var baseURL: String { "https://photos.example.com" }
    var path: String { "/photos" }
    var method: HTTPMethod { .post }
}

enum BackupAPI: Router {
    case store
    var baseURL: String { "https://backup.example.com" }
    var path: String { "/store" }
    var method: HTTPMethod { .put }
}

let output = FileHandle.nullDevice

struct LogEntry: Decodable, Sendable { let message: String }
struct Delta: Decodable, Sendable { let text: String }

enum LogsAPI: Router {
    case tail(service: String), export
    var baseURL: String { "https://logs.example.com" }
    var path: String { "/logs" }
    var method: HTTPMethod { .get }
}

enum VideoAPI: Router {
    case file(id: Int)
    var baseURL: String { "https://video.example.com" }
    var path: String { "/files" }
    var method: HTTPMethod { .get }
}

enum ChatAPI: Router {
    case completions(prompt: String)
    var baseURL: String { "https://llm.example.com" }
    var path: String { "/v1/completions" }
    var method: HTTPMethod { .post }
}

enum FeedAPI: Router {
    case updates
    var baseURL: String { "https://feed.example.com" }
    var path: String { "/updates" }
    var method: HTTPMethod { .get }
}

enum FilesAPI: Router {
    case archive(id: Int)
    var baseURL: String { "https://files.example.com" }
    var path: String { "/archives" }
    var method: HTTPMethod { .get }
}
