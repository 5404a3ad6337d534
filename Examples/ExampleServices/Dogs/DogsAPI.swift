import Courier

/// The dog-pictures endpoints; bodies are plain JSON values, with no envelope.
public enum DogsAPI: DemoRouter {
    /// `GET /dogs/breeds`: `[Breed]`.
    case breeds
    /// `GET /dogs/breeds/{breed}/random`: one ``DogImage``.
    case randomImage(breed: String)

    /// The endpoint path; the breed is escaped as one path segment.
    public var path: String {
        switch self {
        case .breeds: return "/dogs/breeds"
        case .randomImage(let breed): return "/dogs/breeds/\(segment: breed)/random"
        }
    }

    /// Always `GET`.
    public var method: HTTPMethod { .get }
}

/// A dog breed.
public struct Breed: Codable, Sendable, Equatable {
    /// The breed's name, as used in paths.
    public let name: String
    /// The sub-breeds, possibly empty.
    public let subBreeds: [String]
}

/// A picture of a dog.
public struct DogImage: Codable, Sendable, Equatable {
    /// The breed shown.
    public let breed: String
    /// Where the picture is.
    public let imageURL: String
}
