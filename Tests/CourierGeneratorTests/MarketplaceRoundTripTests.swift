import Courier
import CourierTestServer
import Foundation
import GeneratedMarketplace
import XCTest

/// marketplace.yaml (108 operations) through the test server.
final class MarketplaceRoundTripTests: RoundTripCase {
    func testMarketplaceModelsSurviveTheServer() async throws {
        for path in ["/users", "/pets", "/reports", "/nodes", "/settings", "/inventory"] {
            echo("POST", path, status: 201)
        }
        let created = Date(timeIntervalSince1970: 1_700_000_000.25)
        try await MarketplaceServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let user = User(
                createdAt: created, updatedAt: nil, _2fa: true, type: "person",
                address: Address(city: "Kyoto", zipCode: "600"),
                class: "gold", default: false, email: "ada@x.test", firstName: "Ada", id: "u1", role: ._2ndLine,
                selfValue: "/users/u1")
            let received1 = try await UsersService.shared.createUser(body: user).get()
            XCTAssertEqual(received1, user)
            let sent = String(decoding: try lastRequest("/users").body, as: UTF8.self)
            XCTAssertTrue(sent.contains(#""createdAt":"2023-11-14T22:13:20.250Z""#), sent)
            XCTAssertTrue(sent.contains(#""zip-code":"600""#) && sent.contains(#""role":"2nd-line""#), sent)

            let pet = Pet.cat(Cat(indoor: true, name: "Tom", petType: "cat"))
            let received2 = try await PetsService.shared.createPet(body: pet).get()
            XCTAssertEqual(received2, pet)

            let report = Report(
                generatedAt: created, id: "r", rows: [[1, 2.5]], summary: ["total": Money(amount: 3, currency: .eur)],
                version: .v1)
            let received3 = try await ReportsService.shared.createReport(body: report).get()
            XCTAssertEqual(received3, report)

            let leaf = Node(children: [], name: "leaf")
            let node = Node(children: [leaf], name: "root", next: Node(children: [], name: "n"), parent: leaf)
            let received4 = try await NodesService.shared.createNode(body: node).get()
            XCTAssertEqual(received4, node)

            let setting = Setting(
                key: "k", overrides: ["a": 1], value: .bool(true), additionalProperties: ["note": "x"])
            let received5 = try await SettingsService.shared.createSetting(body: setting).get()
            XCTAssertEqual(received5, setting)
            XCTAssertTrue(String(decoding: try lastRequest("/settings").body, as: UTF8.self).contains(#""note":"x""#))

            let item = InventoryItem(
                location: .store(Store(address: Address(city: "Oslo"), kind: "Store")), quantity: 2, sku: "s")
            let received6 = try await InventoryService.shared.createInventoryItem(body: item).get()
            XCTAssertEqual(received6, item)
        }
    }

    func testMarketplaceQueryHeadersFormsAndMultipart() async throws {
        server.route("GET", "/users") { _ in .jsonString(#"{"items":[],"total":0,"next":null}"#) }
        server.route("GET", "/users/u%2F1") { _ in
            .jsonString(#"{"id":"u","email":"e","role":"admin","createdAt":"2024-01-01T00:00:00Z"}"#)
        }
        server.route("POST", "/users/search") { _ in .jsonString("[]") }
        server.route("POST", "/users/u1/attachments") { _ in .jsonString(#"{"id":"a","bytes":3}"#, status: 201) }
        server.route("DELETE", "/users/u1") { _ in .empty() }
        try await MarketplaceServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let page = try await UsersService.shared.listUsers(
                page: 2, sort: .desc, tags: ["x", "y"], roles: [.admin, .readOnly],
                since: Date(timeIntervalSince1970: 0), includeDeleted: false
            ).get()
            XCTAssertEqual(page.total, 0)
            XCTAssertEqual(
                query(try lastRequest("/users")),
                [
                    "include-deleted=false", "page=2", "roles=admin", "roles=read-only", "since=1970-01-01T00:00:00Z",
                    "sort=desc",
                    "tags=x", "tags=y"
                ])

            let user = try await UsersService.shared.getUser(id: "u/1", xPriority: .value2, xRequestID: "r").get()
            XCTAssertEqual(user.createdAt, Date(timeIntervalSince1970: 1_704_067_200))
            let get = try lastRequest("/users/u%2F1")
            XCTAssertEqual(get.headers.header("X-Priority"), "2")
            XCTAssertEqual(get.headers.header("X-Request-ID"), "r")
            // The document declares X-Request-ID (optional) before X-Priority (required): that order
            // on the wire, though the case lists required parameters first.
            XCTAssertEqual(get.headers.fields.map(\.name).filter { $0.hasPrefix("X-") }, ["X-Request-ID", "X-Priority"])

            _ = try await UsersService.shared.searchUsers(body: SearchUsersForm(limit: 3, q: "ada")).get()
            let search = try lastRequest("/users/search")
            XCTAssertEqual(search.headers.header("Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
            XCTAssertEqual(String(decoding: search.body, as: UTF8.self), "limit=3&q=ada")

            let form = UploadUserAttachmentMultipart(
                caption: "a cat", file: Data("abc".utf8), labels: ["x", "y"], priority: .value3,
                size: Money(amount: 1, currency: .jpy), takenAt: Date(timeIntervalSince1970: 0))
            let attachment = try await UsersService.shared.uploadUserAttachment(id: "u1", body: form).get()
            XCTAssertEqual(attachment.bytes, 3)
            let upload = try lastRequest("/users/u1/attachments")
            XCTAssertTrue(upload.headers.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
            let parts = String(decoding: upload.body, as: UTF8.self)
            for expected in [
                "name=\"caption\"\r\n\r\na cat\r\n", "name=\"file\"; filename=\"file\"", "\r\n\r\nabc\r\n",
                "name=\"labels\"\r\n\r\nx\r\n", "name=\"labels\"\r\n\r\ny\r\n", "name=\"priority\"\r\n\r\n3\r\n",
                "name=\"size\"\r\nContent-Type: application/json\r\n\r\n{\"amount\":1,\"currency\":\"JPY\"}\r\n",
                "name=\"takenAt\"\r\n\r\n1970-01-01T00:00:00Z\r\n"
            ] {
                XCTAssertTrue(parts.contains(expected), "\(expected) not in \(parts)")
            }

            server.route("PATCH", "/users/u1") { _ in
                .jsonString(#"{"id":"u1","email":"e","role":"member","createdAt":"2024-01-01T00:00:00Z"}"#)
            }
            let patched = try await UsersService.shared.patchUser(
                id: "u1", dryRun: true, body: PatchUserRequest(archived: true, label: "l")
            ).get()
            XCTAssertEqual(patched.role, .member)
            let patch = try lastRequest("/users/u1")
            XCTAssertEqual(patch.method, "PATCH")
            XCTAssertEqual(patch.headers.header("Content-Type"), "application/merge-patch+json")
            XCTAssertEqual(query(patch), ["dry-run=true"])
            XCTAssertEqual(String(decoding: patch.body, as: UTF8.self), #"{"archived":true,"label":"l"}"#)

            _ = try await UsersService.shared.deleteUser(id: "u1").get()
            XCTAssertEqual(try lastRequest("/users/u1").method, "DELETE")
        }
        XCTAssertEqual(UsersRouter.listUsers().authorization, .none)
        XCTAssertEqual(UsersRouter.getUser(id: "", xPriority: .value1).authorization, .bearer)
        XCTAssertEqual(UsersRouter.deleteUser(id: "").authorization, .basic)
        XCTAssertEqual(UsersRouter.exportUser(id: "").authorization, .custom(header: "X-Api-Key"))
    }

    /// `contentEncoding: base64` (OpenAPI 3.1's spelling of `format: byte`) is `Data`, base64 in JSON.
    func testMarketplaceBase64ContentIsData() async throws {
        echo("POST", "/files", status: 201)
        try await MarketplaceServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let file = File(checksum: Data([1, 2, 3]), content: Data("hi".utf8), name: "f", size: 2)
            let stored = try await FilesService.shared.createFile(body: file).get()
            XCTAssertEqual(stored, file)
            let sent = String(decoding: try lastRequest("/files").body, as: UTF8.self)
            XCTAssertTrue(sent.contains(#""checksum":"AQID""#) && sent.contains(#""content":"aGk=""#), sent)
        }
    }

    /// Every sample decodes as the type its service returns, so the API can be stubbed at once.
    func testSampleDataDecodesAsTheResponseType() throws {
        let decoder = MarketplaceCoding.makeDecoder()
        XCTAssertNoThrow(
            try decoder.decode(User.self, from: UsersRouter.getUser(id: "", xPriority: .value1).sampleData))
        XCTAssertNoThrow(try decoder.decode(ListUsersResponse.self, from: UsersRouter.listUsers().sampleData))
        XCTAssertNoThrow(try decoder.decode(Pet.self, from: PetsRouter.getPet(id: "", xPriority: .value1).sampleData))
        XCTAssertNoThrow(
            try decoder.decode(Shape.self, from: ShapesRouter.getShape(id: "", xPriority: .value1).sampleData))
        XCTAssertNoThrow(
            try decoder.decode(Node.self, from: NodesRouter.getNode(id: "", xPriority: .value1).sampleData))
        XCTAssertNoThrow(
            try decoder.decode(Report.self, from: ReportsRouter.getReport(id: "", xPriority: .value1).sampleData))
        XCTAssertNoThrow(
            try decoder.decode(
                InventoryItem.self, from: InventoryRouter.getInventoryItem(id: "", xPriority: .value1).sampleData))
        XCTAssertNoThrow(
            try decoder.decode(Article.self, from: ArticlesRouter.getArticle(id: "", xPriority: .value1).sampleData))
        XCTAssertEqual(
            UsersRouter.createUser(
                body: try decoder.decode(User.self, from: UsersRouter.getUser(id: "", xPriority: .value1).sampleData)
            ).sampleStatusCode, 201)
    }
}
