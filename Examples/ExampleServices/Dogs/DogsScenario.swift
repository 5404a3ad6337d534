import Courier

/// The dogs example: a breed list and a random image per breed through one generic loader.
public enum DogsScenario {
    /// What the run observed.
    public struct Outcome: Sendable {
        /// The breed names.
        public var breeds: [String] = []
        /// A random image of the first breed.
        public var image: DogImage?
        /// The failure for a breed that does not exist.
        public var missingBreed: ServiceFailure?
        /// The readable output.
        public var transcript: Transcript
        /// Whether the list and the image loaded and the unknown breed was a 404.
        public var succeeded: Bool { !breeds.isEmpty && image != nil && missingBreed?.statusCode == 404 }
    }

    /// Runs the scenario against the demo API at `baseURL`.
    public static func run(baseURL: String, echo: Bool = true) async -> Outcome {
        await DemoAPI.$baseURL.withValue(baseURL) { await run(echo: echo) }
    }

    private static func run(echo: Bool) async -> Outcome {
        var outcome = Outcome(transcript: Transcript(echo: echo))
        outcome.transcript.log("== Dogs: no envelope, one generic load function ==")
        let service = DogsService.shared

        if case .success(let breeds) = await service.load(.breeds, as: [Breed].self) {
            outcome.breeds = breeds.map(\.name)
        }
        outcome.transcript.log("breeds: \(outcome.breeds.joined(separator: ", "))")

        if let first = outcome.breeds.first {
            switch await service.load(.randomImage(breed: first), as: DogImage.self) {
            case .success(let image):
                outcome.image = image
                outcome.transcript.log("random \(image.breed): \(image.imageURL)")
            case let other:
                outcome.transcript.log("image failed: \(other)")
            }
        }

        switch await service.load(.randomImage(breed: "unicorn"), as: DogImage.self) {
        case .requestErr(let failure):
            outcome.missingBreed = failure
            outcome.transcript.log("unicorn → \(failure.statusCode ?? 0): \(failure.message ?? "not found")")
        case let other:
            outcome.transcript.log("unicorn: unexpected \(other)")
        }
        return outcome
    }
}
