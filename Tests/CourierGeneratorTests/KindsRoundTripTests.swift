import Courier
import CourierTestServer
import Foundation
import GeneratedKinds
import XCTest

/// kinds.yaml (every schema kind, small) through the test server.
final class KindsRoundTripTests: RoundTripCase {
    func testKindsHeadersUnionsFormsAndRawBodies() async throws {
        server.route("GET", "/pets/p%201") { _ in .jsonString(#"{"petType":"dog","barks":3}"#) }
        server.route("GET", "/pets/p 1") { _ in .jsonString(#"{"petType":"dog","barks":3}"#) }
        echo("POST", "/shapes", status: 201)
        echo("PUT", "/articles/5/raw")
        server.route("PUT", "/articles") { _ in
            .jsonString(#"{"id":"a","title":"T","createdAt":"2024-05-06T07:08:09Z"}"#)
        }
        try await KindsServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let pet = try await PetsService.shared.getPet(id: "p 1", xRequestID: "r-1", xTrace: 4).get()
            XCTAssertEqual(pet, .dog(Dog(petType: "dog", barks: 3)))
            let request = try XCTUnwrap(
                server.recordedRequests(path: "/pets/p%201").last ?? server.recordedRequests(path: "/pets/p 1").last)
            XCTAssertEqual(request.headers.header("X-Request-ID"), "r-1")
            XCTAssertEqual(request.headers.header("X-Trace"), "4")

            let square = Shape.square(Square(side: 2, label: "s"))
            let stored = try await ShapesService.shared.addShape(dryRun: true, tags: ["a", "b"], body: square).get()
            XCTAssertEqual(stored, square)
            XCTAssertEqual(query(try lastRequest("/shapes")), ["dry-run=true", "tags=a", "tags=b"])
            let circle = Shape.circle(Circle(radius: 1.5))
            let received1 = try await ShapesService.shared.addShape(body: circle).get()
            XCTAssertEqual(received1, circle)

            let article = try await ArticlesService.shared.putArticle(body: PutArticleForm(title: "a b")).get()
            XCTAssertEqual(article.createdAt, Date(timeIntervalSince1970: 1_714_979_289))
            XCTAssertEqual(String(decoding: try lastRequest("/articles").body, as: UTF8.self), "title=a%20b")

            let since = Date(timeIntervalSince1970: 1_714_979_289)
            let labels = try await ArticlesService.shared.putRaw(id: 5, since: since, body: Data(#"{"k":"v"}"#.utf8))
                .get()
            XCTAssertEqual(labels, ["k": "v"])
            let raw = try lastRequest("/articles/5/raw")
            XCTAssertEqual(raw.headers.header("Content-Type"), "application/octet-stream")
            XCTAssertEqual(query(raw), ["since=2024-05-06T07:08:09Z"])
        }
        XCTAssertEqual(PetsRouter.getPet(id: "", xRequestID: "").authorization, .custom(header: "X-Api-Key"))
        XCTAssertEqual(ShapesRouter.addShape(body: .circle(Circle(radius: 1))).authorization, .basic)
    }

    func testKindsRecursiveExtraAndOddlyNamedMembersDecode() async throws {
        let body = #"""
            {"settings":{"theme":"dark","fontSize":14},
             "tree":{"name":"root","children":[{"name":"leaf","children":[]}],"parent":{"name":"up","children":[]}},
             "nested":[[],[[]]],"bag":{"a":{"b":{}}},
             "odd":{"class":"c","first-name":"Ada","2fa":true,"@type":"person","self":"me","e-mail":null,
                    "extra":{"any":[1,"two",null,9007199254740993,2.5,true]},"inline":{"level":"very-high"},"default":false}}
            """#
        server.route("GET", "/misc") { _ in .jsonString(body) }
        try await KindsServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let misc = try await MiscService.shared.misc().get()
            XCTAssertEqual(misc.settings, Settings(theme: "dark", additionalProperties: ["fontSize": 14]))
            XCTAssertEqual(misc.tree?.children.first?.name, "leaf")
            XCTAssertEqual(misc.tree?.parent?.name, "up")
            // Aliases that name themselves are structs wrapping their value, coded as the value.
            XCTAssertEqual(misc.nested, Nested([Nested([]), Nested([Nested([])])]))
            XCTAssertEqual(misc.bag?.value["a"]?.value["b"], Bag([:]))
            XCTAssertEqual(try MiscResponse.encoded(misc.nested), "[[],[[]]]")
            XCTAssertEqual(try MiscResponse.encoded(misc.bag), #"{"a":{"b":{}}}"#)
            let odd = try XCTUnwrap(misc.odd)
            XCTAssertEqual(odd.class, "c")
            XCTAssertEqual(odd.firstName, "Ada")
            XCTAssertEqual(odd._2fa, true)
            XCTAssertEqual(odd.type, "person")
            XCTAssertEqual(odd.selfValue, "me")
            XCTAssertNil(odd.eMail)
            XCTAssertEqual(odd.inline?.level, .veryHigh)
            // Whole numbers stay exact, past what a Double holds (2^53 + 1), and are written back as they came.
            XCTAssertEqual(
                odd.extra,
                .object([
                    "any": .array([
                        .integer(1), .string("two"), .null, .integer(9_007_199_254_740_993), .number(2.5), .bool(true)
                    ])
                ]))
            XCTAssertEqual(
                try MiscResponse.encoded(odd.extra), #"{"any":[1,"two",null,9007199254740993,2.5,true]}"#)
            let encoded = try MiscResponse.encoded(odd)
            XCTAssertTrue(encoded.contains(#""first-name":"Ada""#) && encoded.contains(#""@type":"person""#), encoded)
        }
    }

    /// Nulls inside arrays and maps decode as `nil` elements and values, a required member whose
    /// schema admits null is optional, and each is written back as `null`, not left out.
    func testKindsNullsInArraysMapsAndRequiredMembers() async throws {
        let body = #"{"sparse":{"note":null,"slots":[1,null,3],"notes":["a",null],"scores":{"x":1.5,"y":null}}}"#
        server.route("GET", "/misc") { _ in .jsonString(body) }
        try await KindsServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let misc = try await MiscService.shared.misc().get()
            let sparse = try XCTUnwrap(misc.sparse)
            XCTAssertEqual(
                sparse, Sparse(note: nil, slots: [1, nil, 3], notes: ["a", nil], scores: ["x": 1.5, "y": nil]))
            XCTAssertEqual(
                try MiscResponse.encoded(sparse),
                #"{"note":null,"notes":["a",null],"scores":{"x":1.5,"y":null},"slots":[1,null,3]}"#)
        }
        XCTAssertEqual(try MiscResponse.encoded(Sparse(slots: [])), #"{"note":null,"slots":[]}"#)
    }

    /// A required write-only member is required in requests only: a response that leaves it out
    /// (as the document says it will) decodes, and a request still sends it.
    func testKindsWriteOnlyMembersAreAbsentFromResponses() async throws {
        server.route("GET", "/misc") { _ in .jsonString(#"{"login":{"user":"ada","id":"u1"}}"#) }
        try await KindsServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let misc = try await MiscService.shared.misc().get()
            let login = try XCTUnwrap(misc.login)
            XCTAssertEqual(login, Login(user: "ada", password: nil, id: "u1"))
        }
        XCTAssertEqual(
            try MiscResponse.encoded(Login(user: "ada", password: "pw", id: "u1")),
            #"{"id":"u1","password":"pw","user":"ada"}"#)
    }

    /// A value a server added after the document was written decodes as `undocumented` instead
    /// of failing the whole response, and goes back out as it came.
    func testKindsEnumValuesTheDocumentDoesNotListDecode() async throws {
        server.route("PUT", "/articles") { _ in
            .jsonString(#"{"id":"a","title":"T","createdAt":"2024-05-06T07:08:09Z","priority":7}"#)
        }
        server.route("GET", "/misc") { _ in
            .jsonString(#"{"odd":{"class":"c","first-name":"A","inline":{"level":"urgent"}}}"#)
        }
        try await KindsServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let article = try await ArticlesService.shared.putArticle(body: PutArticleForm(title: "T")).get()
            XCTAssertEqual(article.priority, .undocumented(7))
            let misc = try await MiscService.shared.misc().get()
            XCTAssertEqual(misc.odd?.inline?.level, .undocumented("urgent"))
        }
        XCTAssertEqual(OddNamesInlineLevel(rawValue: "very-high"), .veryHigh)
        XCTAssertEqual(OddNamesInlineLevel.undocumented("urgent").rawValue, "urgent")
        XCTAssertEqual(OddNamesInlineLevel.allCases, [.low, .high, .veryHigh])
        XCTAssertEqual(OddNamesInlineLevel.undocumented("low"), .low, "compared by raw value")
        XCTAssertEqual(Set([OddNamesInlineLevel.undocumented("low"), .low]).count, 1)
        XCTAssertEqual(try MiscResponse.encoded(ArticlePriority.undocumented(7)), "7")
        XCTAssertEqual(try MiscResponse.encoded(ArticlePriority.value2), "2")
    }

    /// A union without a discriminator picks the variant whose enums list the value; only when
    /// none does is a value decoded as `undocumented`, by the first variant it fits.
    func testKindsUnionsChooseTheVariantThatListsAValue() throws {
        let decoder = KindsCoding.makeDecoder()
        func event(_ json: String) throws -> Event { try decoder.decode(Event.self, from: Data(json.utf8)) }
        XCTAssertEqual(
            try event(#"{"kind":"created","id":"1"}"#), .eventOption1(EventOption1(kind: .created, id: "1")))
        XCTAssertEqual(
            try event(#"{"kind":"purged","id":"2"}"#), .eventOption2(EventOption2(kind: .purged, id: "2")))
        XCTAssertEqual(
            try event(#"{"kind":"archived","id":"3"}"#),
            .eventOption1(EventOption1(kind: .undocumented("archived"), id: "3")))
        let grades = try decoder.decode([Grade].self, from: Data(#"["b","c","z"]"#.utf8))
        XCTAssertEqual(grades, [.gradeOption1(.b), .gradeOption2(.c), .gradeOption1(.undocumented("z"))])
        // Outside a union an unlisted value is never refused.
        XCTAssertEqual(try decoder.decode(GradeOption2.self, from: Data(#""z""#.utf8)), .undocumented("z"))
    }

    func testKindsMembersNamedLikeSwiftAndCoding() async throws {
        let body = #"{"mode":"a b","additionalProperties":true,"encode":"e","hashValue":1,"declaredKeys":"d","x":"y"}"#
        server.route("GET", "/edge/p") { _ in .jsonString(body) }
        try await KindsServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let days = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 86_400)]
            let edge = try await MiscService.shared.path2(path: "p", days: days, queue2: "q").get()
            XCTAssertEqual(
                edge,
                Edge(
                    mode: .aB, additionalProperties2: true, encode: "e", hashValue: 1, declaredKeys: "d",
                    additionalProperties: ["x": "y"]))
            XCTAssertEqual(
                query(try lastRequest("/edge/p")),
                ["days=1970-01-01T00:00:00Z", "days=1970-01-02T00:00:00Z", "queue=q"])
            let encoded = String(decoding: try KindsCoding.makeEncoder().encode(edge), as: UTF8.self)
            XCTAssertEqual(
                encoded,
                #"{"additionalProperties":true,"declaredKeys":"d","encode":"e","hashValue":1,"mode":"a b","x":"y"}"#)
        }
        XCTAssertEqual(EdgeMode.allCases.map(\.rawValue).last, "\u{1F642}")
    }

    func testKindsArraysInThePathAndHeadersAreCommaSeparated() async throws {
        server.route("GET", "/batch/1,2,3") { _ in .jsonString(#"{"k":"v"}"#) }
        server.route("GET", "/batch/1%2C2%2C3") { _ in .jsonString(#"{"k":"v"}"#) }
        server.route("GET", "/batch/4") { _ in .jsonString(#"{}"#) }
        try await KindsServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let labels = try await MiscService.shared.batch(
                ids: [1, 2, 3], xNames: ["a b", "c"], xLevels: [.low, .high]
            )
            .get()
            XCTAssertEqual(labels, ["k": "v"])
            let request = try XCTUnwrap(
                server.recordedRequests(path: "/batch/1,2,3").last
                    ?? server.recordedRequests(path: "/batch/1%2C2%2C3").last)
            XCTAssertEqual(request.headers.header("X-Names"), "a b,c")
            XCTAssertEqual(request.headers.header("X-Levels"), "low,high")
            // In the document's order, on the wire.
            let names = request.headers.fields.map(\.name).filter { $0.hasPrefix("X-") }
            XCTAssertEqual(names, ["X-Names", "X-Levels"])
            _ = try await MiscService.shared.batch(ids: [4], xNames: []).get()
            let single = try lastRequest("/batch/4")
            XCTAssertEqual(single.headers.header("X-Names"), "")
            XCTAssertNil(single.headers.header("X-Levels"))
        }
    }

    /// A query array with `explode: false` is one value, its elements joined as its `style` says;
    /// without, repeated keys.
    func testKindsQueryArraysWithoutExplodeAreOneValue() async throws {
        server.route("GET", "/search") { _ in .jsonString(#"{"k":"v"}"#) }
        try await KindsServer.$baseURL.withValue(server.baseURL.absoluteString) {
            _ = try await MiscService.shared.search(
                type: [.album, .track], fields: ["a", "b"], levels: [1, 2], words: ["x", "y"], tag: ["t1", "t2"],
                near: [5, 6]
            )
            .get()
            XCTAssertEqual(
                query(try lastRequest("/search")),
                ["fields=a,b", "levels=1|2", "near=5", "near=6", "tag=t1", "tag=t2", "type=album,track", "words=x y"])
            // Percent-encoded on the wire, as every query value is.
            XCTAssertTrue(try lastRequest("/search").rawTarget.contains("type=album%2Ctrack"))
            _ = try await MiscService.shared.search(type: [.track]).get()
            XCTAssertEqual(query(try lastRequest("/search")), ["type=track"])
        }
    }

    /// Cookie parameters go out in one `Cookie` line, in the document's order, each value
    /// percent-encoded so that it stays one cookie; those without a value are left out.
    func testKindsCookieParametersAreOneCookieLine() async throws {
        server.route("GET", "/prefs") { _ in .empty() }
        server.route("GET", "/whoami") { _ in .empty() }
        try await KindsServer.$baseURL.withValue(server.baseURL.absoluteString) {
            _ = try await MiscService.shared.prefs(session: "a b;c=d", theme: .dark, ids: [1, 2], xTrace: 7).get()
            let full = try lastRequest("/prefs")
            XCTAssertEqual(full.headers.header("Cookie"), "session=a%20b%3Bc%3Dd; theme=dark; ids=1%2C2")
            XCTAssertEqual(full.headers.header("X-Trace"), "7")
            _ = try await MiscService.shared.prefs(session: "s1").get()
            XCTAssertEqual(try lastRequest("/prefs").headers.header("Cookie"), "session=s1")
            _ = try await MiscService.shared.whoami(session: "é").get()
            XCTAssertEqual(try lastRequest("/whoami").headers.header("Cookie"), "session=%C3%A9")
        }
    }

    /// apiKey schemes in the query and in a cookie: the generated routers declare them, and an
    /// `AuthenticationInterceptor` puts the key there (beside the operation's own cookie).
    func testKindsQueryAndCookieKeysAreSent() async throws {
        server.route("GET", "/forecast") { _ in .empty() }
        server.route("GET", "/account") { _ in .empty() }
        XCTAssertEqual(MiscRouter.forecast(city: "").authorization, .query(name: "appid"))
        XCTAssertEqual(MiscRouter.account().authorization, .cookie(name: "sid"))
        var configuration = Session.Configuration()
        configuration.interceptors = [
            AuthenticationInterceptor(credential: AuthCredential(accessToken: "k+1")) { expired in expired }
        ]
        let service = MiscService(session: Session(configuration: configuration))
        try await KindsServer.$baseURL.withValue(server.baseURL.absoluteString) {
            _ = try await service.forecast(city: "Oslo").get()
            XCTAssertEqual(try lastRequest("/forecast").rawTarget, "/forecast?city=Oslo&appid=k%2B1")
            _ = try await service.account(theme: "dark").get()
            XCTAssertEqual(try lastRequest("/account").headers.header("Cookie"), "theme=dark; sid=k+1")
        }
    }

    /// A success response that is not JSON is the body itself: bytes for `image/png`, text for
    /// `text/plain`, and the text example is the stub's sample.
    func testKindsResponsesThatAreNotJSONAreTheBody() async throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFE, 0xFF])
        server.route("GET", "/articles/3/cover") { _ in .data(png, contentType: "image/png") }
        server.route("GET", "/articles/3/text") { _ in .text("Title\n\nBody, café.") }
        server.route("GET", "/articles/4/text") { _ in .jsonString(#"{"message":"no such article"}"#, status: 404) }
        try await KindsServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let cover: Data = try await ArticlesService.shared.getCover(id: 3).get()
            XCTAssertEqual(cover, png)
            let text: String = try await ArticlesService.shared.getText(id: 3).get()
            XCTAssertEqual(text, "Title\n\nBody, café.")
            let missing = await ArticlesService.shared.getText(id: 4)
            guard case .requestErr(let failure) = missing else { return XCTFail("expected requestErr, got \(missing)") }
            XCTAssertEqual(failure.statusCode, 404)
            XCTAssertEqual(failure.message, "no such article")
        }
        XCTAssertEqual(
            String(decoding: ArticlesRouter.getText(id: 1).sampleData, as: UTF8.self),
            "Title\n\nBody, \"quoted\", café.")
        XCTAssertEqual(ArticlesRouter.getCover(id: 1).sampleData, Data())
    }

    /// `format: byte` is `Data`: base64 in JSON, and a text part (not a file) in multipart.
    func testKindsByteStringsAreBase64Data() async throws {
        echo("POST", "/shapes", status: 201)
        server.route("POST", "/articles/7/attachment") { _ in .empty() }
        let stamp = Data([0xDE, 0xAD, 0xBE, 0xEF])
        try await KindsServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let square = Shape.square(Square(side: 2, label: "s", stamp: stamp))
            let stored = try await ShapesService.shared.addShape(body: square).get()
            XCTAssertEqual(stored, square)
            let sent = String(decoding: try lastRequest("/shapes").body, as: UTF8.self)
            XCTAssertTrue(sent.contains(#""stamp":"3q2+7w==""#), sent)

            let form = AttachMultipart(file: Data("abc".utf8), digest: stamp, digests: [Data([1]), Data([2, 3])])
            _ = try await ArticlesService.shared.attach(id: 7, body: form).get()
            let parts = String(decoding: try lastRequest("/articles/7/attachment").body, as: UTF8.self)
            for expected in [
                "name=\"file\"; filename=\"file\"", "\r\n\r\nabc\r\n", "name=\"digest\"\r\n\r\n3q2+7w==\r\n",
                "name=\"digests\"\r\n\r\nAQ==\r\n", "name=\"digests\"\r\n\r\nAgM=\r\n"
            ] {
                XCTAssertTrue(parts.contains(expected), "\(expected) not in \(parts)")
            }
            XCTAssertFalse(parts.contains("filename=\"digest"), parts)
        }
    }

    /// A part has the media type the operation's `encoding` gives it (the first of a list); a file
    /// part with none, or a wildcard, is `application/octet-stream`, a text part has none.
    func testKindsMultipartPartsHaveTheEncodingsMediaType() async throws {
        server.route("POST", "/articles/8/attachment") { _ in .empty() }
        try await KindsServer.$baseURL.withValue(server.baseURL.absoluteString) {
            let form = AttachMultipart(
                file: Data("png".utf8), scan: Data("scan".utf8), thumbnail: Data("t".utf8), note: "*hi*")
            _ = try await ArticlesService.shared.attach(id: 8, body: form).get()
            let parts = String(decoding: try lastRequest("/articles/8/attachment").body, as: UTF8.self)
            for expected in [
                "name=\"file\"; filename=\"file\"\r\nContent-Type: image/png\r\n\r\npng\r\n",
                "name=\"scan\"; filename=\"scan\"\r\nContent-Type: application/octet-stream\r\n\r\nscan\r\n",
                "name=\"thumbnail\"; filename=\"thumbnail\"\r\nContent-Type: application/octet-stream\r\n\r\nt\r\n",
                "name=\"note\"\r\nContent-Type: text/markdown\r\n\r\n*hi*\r\n"
            ] {
                XCTAssertTrue(parts.contains(expected), "\(expected) not in \(parts)")
            }
        }
    }

    func testKindsSampleDecodes() throws {
        let decoder = KindsCoding.makeDecoder()
        XCTAssertEqual(
            try decoder.decode(Pet.self, from: PetsRouter.getPet(id: "", xRequestID: "").sampleData),
            .cat(Cat(petType: "cat", indoor: true)))
    }
}

extension MiscResponse {
    /// `value` encoded by the module's encoder, as text.
    fileprivate static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try KindsCoding.makeEncoder().encode(value), as: UTF8.self)
    }
}
