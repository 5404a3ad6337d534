import Courier
import CourierTestServer
import Foundation
import GeneratedMini
import XCTest

/// mini.json through the test server.
final class MiniRoundTripTests: RoundTripCase {
    func testMiniPetsListCreateGetDelete() async throws {
        server.route("GET", "/pets") { _ in .jsonString(#"[{"id":1,"name":"Rex","status":"sold","nickname":null}]"#) }
        echo("POST", "/pets", status: 201)
        server.route("GET", "/pets/7") { _ in .jsonString(#"{"id":7,"name":"Ada"}"#) }
        server.route("DELETE", "/pets/7") { _ in .empty() }
        try await MiniServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let pets = try await PetsService.shared.listPets(limit: 2, status: .sold).get()
            XCTAssertEqual(pets, [Pet(id: 1, name: "Rex", status: .sold, nickname: nil)])
            var request = try lastRequest("/pets")
            XCTAssertEqual(request.method, "GET")
            XCTAssertEqual(query(request), ["limit=2", "status=sold"])

            let new = Pet(id: 3, name: "Bo", status: .pending, nickname: "B")
            let created = try await PetsService.shared.createPet(body: new).get()
            XCTAssertEqual(created, new)
            request = try lastRequest("/pets")
            XCTAssertEqual(request.method, "POST")
            XCTAssertEqual(request.headers.header("Content-Type"), "application/json")
            XCTAssertEqual(
                String(decoding: request.body, as: UTF8.self),
                #"{"id":3,"name":"Bo","nickname":"B","status":"pending"}"#)

            let received1 = try await PetsService.shared.getPet(petId: 7).get()
            XCTAssertEqual(received1, Pet(id: 7, name: "Ada"))
            _ = try await PetsService.shared.deletePet(petId: 7).get()
            XCTAssertEqual(try lastRequest("/pets/7").method, "DELETE")
        }
        XCTAssertEqual(PetsRouter.listPets().authorization, .bearer)
        XCTAssertEqual(PetsRouter.deletePet(petId: 1).authorization, .none)
        XCTAssertEqual(MiniServer.baseURL, "https://eu.pets.example/v1")
    }

    func testMiniCompletionHandlerCompletesOnce() async throws {
        server.route("GET", "/pets/1") { _ in .jsonString(#"{"id":1,"name":"Rex"}"#) }
        let base = server.baseURL.absoluteString
        let pet: Pet = try await withCheckedThrowingContinuation { continuation in
            MiniServer.$baseURL.withValue(base) {
                _ = PetsService.shared.getPet(petId: 1) { result in
                    continuation.resume(with: Result { try result.get() })
                }
            }
        }
        XCTAssertEqual(pet.name, "Rex")
    }

    func testMiniFailuresAreNetworkResults() async throws {
        server.route("GET", "/pets/9") { _ in .jsonString(#"{"message":"no pet 9"}"#, status: 404) }
        await MiniServer.$baseURL.withValue(server.baseURL.absoluteString) {
            guard case .requestErr(let failure) = await PetsService.shared.getPet(petId: 9) else {
                return XCTFail("a 404 is a requestErr")
            }
            XCTAssertEqual(failure.statusCode, 404)
        }
    }

    func testMiniSampleDecodes() throws {
        let pets = try MiniCoding.makeDecoder().decode([Pet].self, from: PetsRouter.listPets().sampleData)
        XCTAssertEqual(pets.first?.name, "Rex")
    }
}
