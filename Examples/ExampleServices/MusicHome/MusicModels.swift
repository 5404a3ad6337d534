/// A song in a home-screen list.
public struct Song: Codable, Sendable, Equatable {
    /// The song's id.
    public let id: Int
    /// The title.
    public let title: String
    /// The performing artist.
    public let artist: String
}

/// A promotional banner.
public struct Banner: Codable, Sendable, Equatable {
    /// The banner's id.
    public let id: Int
    /// The image shown.
    public let imageURL: String
}
