import CourierTestServer

/// The music home routes, answering `{isSuccess, code, message, result}` with string codes.
enum MusicRoutes {
    private struct Song: Encodable { let id: Int; let title: String; let artist: String }
    private struct Banner: Encodable { let id: Int; let imageURL: String }

    private static let songs = [
        Song(id: 1, title: "Blue Hour", artist: "TXT"),
        Song(id: 2, title: "Hype Boy", artist: "NewJeans"),
        Song(id: 3, title: "Love Dive", artist: "IVE"),
        Song(id: 4, title: "Eleven", artist: "IVE"),
        Song(id: 5, title: "Ditto", artist: "NewJeans")
    ]

    static func register(on server: TestHTTPServer) {
        server.route("GET", "/home/banner") { _ in
            Wire.result([
                Banner(id: 1, imageURL: "https://img.example.com/b1.png"),
                Banner(id: 2, imageURL: "https://img.example.com/b2.png")
            ])
        }
        server.route("GET", "/home/popular") { _ in Wire.result(Array(songs.prefix(3))) }
        server.route("GET", "/home/latest") { _ in Wire.result(Array(songs.suffix(2))) }
        server.route("GET", "/home/personalized") { request in
            guard let id = request.query["userId"].flatMap(Int.init), id < 100 else {
                return Wire.result([Song]?.none, code: "USER404", message: "unknown user")
            }
            return Wire.result(songs.filter { $0.id % 2 == id % 2 })
        }
    }
}
