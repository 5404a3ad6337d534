import Courier
import DemoServer
import Foundation
import GeneratedDogs

// The dogs scenario again, through code courier-generate wrote from Examples/DogsOpenAPI/dogs.yaml
// (Examples/GeneratedDogs) instead of the hand-written Examples/ExampleServices/Dogs: the same
// demo server, the same three calls. Exits 0 on success.
let status = await DemoServer.runExample("GeneratedDogsExample") { baseURL in
    await DogsServer.$baseURL.withValue(baseURL) {
        print("== Dogs, generated from dogs.yaml: DogsRouter, DogsService, Breed, DogImage ==")
        guard case .success(let breeds) = await DogsService.shared.breeds(), let first = breeds.first else {
            print("breeds failed")
            return false
        }
        print("breeds: \(breeds.map(\.name).joined(separator: ", "))")
        guard case .success(let image) = await DogsService.shared.randomImage(breed: first.name) else {
            print("image failed")
            return false
        }
        print("random \(image.breed): \(image.imageURL)")
        guard case .requestErr(let failure) = await DogsService.shared.randomImage(breed: "unicorn") else {
            print("unicorn: expected a 404")
            return false
        }
        print("unicorn → \(failure.statusCode ?? 0): \(failure.message ?? "not found")")
        // The document's examples are the routers' sample data, for stubbing.
        let sample = try? DogsCoding.makeDecoder().decode([Breed].self, from: DogsRouter.breeds.sampleData)
        print("sample breeds: \(sample?.map(\.name).joined(separator: ", ") ?? "none")")
        return image.breed == first.name && failure.statusCode == 404 && sample?.count == 2
    }
}
exit(status)
