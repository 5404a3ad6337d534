import CourierTestServer

/// `GET /dogs/breeds` and `GET /dogs/breeds/{breed}/random`: plain JSON, no envelope.
enum DogsRoutes {
    private struct Breed: Encodable { let name: String; let subBreeds: [String] }
    private struct Image: Encodable { let breed: String; let imageURL: String }
    private struct Problem: Encodable { let message: String }

    private static let breeds = [
        Breed(name: "akita", subBreeds: []),
        Breed(name: "hound", subBreeds: ["afghan", "basset"]),
        Breed(name: "shiba", subBreeds: [])
    ]

    static func register(on server: TestHTTPServer) {
        server.route("GET", "/dogs/breeds") { _ in .json(breeds) }
        for breed in breeds {
            server.route("GET", "/dogs/breeds/\(breed.name)/random") { _ in
                let number = Int.random(in: 1...20)
                return .json(
                    Image(breed: breed.name, imageURL: "https://images.example.com/\(breed.name)/\(number).jpg"))
            }
        }
        server.route("GET", "/dogs/breeds/unicorn/random") { _ in
            .json(Problem(message: "Breed not found (unicorn)"), status: 404)
        }
    }
}
