import Courier
import Foundation
import XCTest

/// Shapes real APIs return (repository listings, timelines, payments, GeoJSON, paged
/// envelopes, JSON:API), decoded into typical models, intact and with one field broken.
final class JSONRealWorldEquivalenceTests: XCTestCase {
    struct Repository: Decodable {
        let id: Int
        let nodeId: String
        let fullName: String
        let `private`: Bool
        let owner: Owner
        let htmlUrl: URL
        let description: String?
        let fork: Bool
        let createdAt: Date
        let stargazersCount: Int
        let language: String?
        let topics: [String]
        let license: License?
        let score: Double?

        struct Owner: Decodable {
            let login: String
            let id: Int64
            let avatarUrl: URL
            let siteAdmin: Bool
        }

        struct License: Decodable {
            let key: String
            let spdxId: String?
        }
    }

    static let repositories = #"""
        [{"id":1296269,"node_id":"MDEwOlJlcG9zaXRvcnkxMjk2MjY5","full_name":"octo/hello-world","private":false,
          "owner":{"login":"octo","id":1,"avatar_url":"https://example.com/u/1?v=4","site_admin":false},
          "html_url":"https://example.com/octo/hello-world","description":"My first \"repo\" \u2014 with escapes\n",
          "fork":false,"created_at":"2011-01-26T19:01:12Z","stargazers_count":80,"language":"C","topics":["octo","api"],
          "license":{"key":"mit","spdx_id":"MIT"},"score":1.0,"unused":{"deep":[1,2,{"x":null}]}},
         {"id":2,"node_id":"x","full_name":"a/b","private":true,"owner":{"login":"a","id":9007199254740993,
          "avatar_url":"https://example.com/a","site_admin":true},"html_url":"https://example.com/a/b","description":null,
          "fork":true,"created_at":"2020-02-29T23:59:59Z","stargazers_count":0,"language":null,"topics":[],"license":null}]
        """#

    struct Timeline: Decodable {
        let data: [Post]
        let meta: Meta
        let includes: Includes?

        struct Post: Decodable {
            let id: String
            let text: String
            let authorId: String
            let publicMetrics: [String: Int]
            let entities: Entities?
            let lang: Language
        }

        enum Language: String, Decodable {
            case en, ja, und
        }

        struct Entities: Decodable {
            let hashtags: [Tag]?
            let urls: [Link]?
        }

        struct Tag: Decodable {
            let start: Int16
            let end: Int16
            let tag: String
        }

        struct Link: Decodable {
            let expandedUrl: URL
        }

        struct Meta: Decodable {
            let resultCount: UInt8
            let nextToken: String?
        }

        struct Includes: Decodable {
            let users: [User]
        }

        struct User: Decodable {
            let id: String
            let name: String
            let verified: Bool?
        }
    }

    static let timeline = #"""
        {"data":[{"id":"1","text":"Hello 🌍 #swift \ud83d\ude80","author_id":"10","public_metrics":{"retweet_count":3,"like_count":42},
          "entities":{"hashtags":[{"start":8,"end":14,"tag":"swift"}],"urls":[{"expanded_url":"https://swift.org/"}]},"lang":"en"},
         {"id":"2","text":"こんにちは","author_id":"11","public_metrics":{},"lang":"ja"}],
         "meta":{"result_count":2,"next_token":null},"includes":{"users":[{"id":"10","name":"A","verified":true},{"id":"11","name":"B"}]}}
        """#

    struct Charge: Decodable {
        let id: String
        let amount: Decimal
        let amountRefunded: Int
        let currency: String
        let captured: Bool
        let created: Date
        let metadata: [String: String]
        let outcome: Outcome?
        let refunds: Page<Refund>

        struct Outcome: Decodable {
            let riskScore: UInt?
            let type: String
        }

        struct Refund: Decodable {
            let id: String
            let amount: Int
        }
    }

    struct Page<Element: Decodable>: Decodable {
        let object: String
        let data: [Element]
        let hasMore: Bool
        let totalCount: Int?
    }

    static let charge = #"""
        {"id":"ch_1","amount":2000.50,"amount_refunded":0,"currency":"usd","captured":true,"created":1700000000,
         "metadata":{"order_id":"6735","note":"gift \u00e9"},"outcome":{"risk_score":32,"type":"authorized"},
         "refunds":{"object":"list","data":[{"id":"re_1","amount":500}],"has_more":false,"total_count":1}}
        """#

    struct FeatureCollection: Decodable {
        let type: String
        let features: [Feature]

        struct Feature: Decodable {
            let type: String
            let geometry: Geometry
            let properties: [String: DecodedTree]?
        }

        struct Geometry: Decodable {
            let type: String
            let coordinates: Coordinates
        }

        enum Coordinates: Decodable {
            case point([Double])
            case line([[Double]])
            case polygon([[[Double]]])

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let point = try? container.decode([Double].self) {
                    self = .point(point)
                } else if let line = try? container.decode([[Double]].self) {
                    self = .line(line)
                } else {
                    self = .polygon(try container.decode([[[Double]]].self))
                }
            }
        }
    }

    static let geoJSON = #"""
        {"type":"FeatureCollection","features":[
         {"type":"Feature","geometry":{"type":"Point","coordinates":[102.0,0.5]},"properties":{"prop0":"value0"}},
         {"type":"Feature","geometry":{"type":"LineString","coordinates":[[102.0,0.0],[103.0,1.0],[104.0,0.0],[105.0,1.0]]},
          "properties":{"prop0":"value0","prop1":0.0}},
         {"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[100.0,0.0],[101.0,0.0],[101.0,1.0],[100.0,1.0],[100.0,0.0]]]},
          "properties":{"prop0":"value0","prop1":{"this":"that"}}}]}
        """#

    struct JSONAPIDocument: Decodable {
        let data: [Resource]
        let included: [Resource]?
        let links: [String: URL?]

        struct Resource: Decodable {
            let type: String
            let id: String
            let attributes: [String: DecodedTree]
            let relationships: [String: Relationship]?
        }

        struct Relationship: Decodable {
            let data: Identifier?
        }

        struct Identifier: Decodable {
            let type: String
            let id: String
        }
    }

    static let jsonAPI = #"""
        {"data":[{"type":"articles","id":"1","attributes":{"title":"JSON:API","views":1024,"rating":4.5,"draft":false,"tags":null},
         "relationships":{"author":{"data":{"type":"people","id":"9"}},"editor":{"data":null}}}],
         "included":[{"type":"people","id":"9","attributes":{"name":"Dan"}}],
         "links":{"self":"https://example.com/articles","next":null}}
        """#

    private var snakeISO: JSONEquivalence.Options {
        var options = JSONEquivalence.Options()
        options.keys = .convertFromSnakeCase
        options.dates = .iso8601
        return options
    }

    private var snakeSeconds: JSONEquivalence.Options {
        var options = JSONEquivalence.Options()
        options.keys = .convertFromSnakeCase
        options.dates = .secondsSince1970
        return options
    }

    func testDocumentsDecodeAlike() {
        assertSameValue([Repository].self, Self.repositories, snakeISO)
        assertSameValue(Timeline.self, Self.timeline, snakeISO)
        assertSameValue(Charge.self, Self.charge, snakeSeconds)
        assertSameValue(FeatureCollection.self, Self.geoJSON)
        assertSameValue(JSONAPIDocument.self, Self.jsonAPI)
        assertSameValue(DecodedTree.self, Self.repositories)
        assertSameValue(ContainerTree.self, Self.timeline)
    }

    /// One broken field at a time: every mutation must fail (or succeed) alike, at the same path.
    func testBrokenFieldsFailAlike() {
        let cases: [(String, String, String)] = [
            (Self.repositories, #""stargazers_count":80"#, #""stargazers_count":"80""#),
            (Self.repositories, #""stargazers_count":80"#, #""stargazers_count":80.5"#),
            (Self.repositories, #""login":"octo""#, #""login":null"#),
            (Self.repositories, #""created_at":"2011-01-26T19:01:12Z""#, #""created_at":"yesterday""#),
            (Self.repositories, #""html_url":"https://example.com/octo/hello-world""#, #""html_url":"h t t p""#),
            (Self.repositories, #""fork":false,"#, ""),
            (Self.repositories, #""topics":["octo","api"]"#, #""topics":["octo",7]"#),
            (Self.timeline, #""lang":"en""#, #""lang":"fr""#),
            (Self.timeline, #""result_count":2"#, #""result_count":256"#),
            (Self.timeline, #""start":8"#, #""start":-40000"#),
            (Self.timeline, #""like_count":42"#, #""like_count":true"#),
            (Self.charge, #""amount":2000.50"#, #""amount":"2000.50""#),
            (Self.charge, #""risk_score":32"#, #""risk_score":-32"#),
            (Self.charge, #""has_more":false"#, #""has_more":0"#),
            (Self.charge, #""order_id":"6735""#, #""order_id":6735"#),
            (Self.geoJSON, "[102.0,0.5]", "[102.0,\"0.5\"]"),
            (Self.geoJSON, "[[[100.0,0.0]", "[[[100.0,null]"),
            (Self.jsonAPI, #""type":"people","id":"9"}}"#, #""type":"people"}}"#),
            (Self.jsonAPI, #""self":"https://example.com/articles""#, #""self":"""#)
        ]
        for (document, original, replacement) in cases {
            XCTAssertTrue(document.contains(original), original)
            let broken = document.replacingOccurrences(of: original, with: replacement)
            assertEquivalent([Repository].self, broken, snakeISO)
            assertEquivalent(Timeline.self, broken, snakeISO)
            assertEquivalent(Charge.self, broken, snakeSeconds)
            assertEquivalent(FeatureCollection.self, broken)
            assertEquivalent(JSONAPIDocument.self, broken)
        }
    }

    struct BenchmarkItem: Decodable {
        let id: Int
        let guid: String
        let name: String
        let price: Double
        let quantity: Int
        let active: Bool
        let tags: [String]
        let note: String
    }

    func testLargeGeneratedArray() {
        var items: [String] = []
        for index in 0..<2_000 {
            items.append(
                #"{"id":\#(index),"guid":"\#(String(index, radix: 16))-4c2a","name":"Item \#(index)","price":\#(Double(index) / 7),"#
                    + #""quantity":\#(index % 50),"active":\#(index % 3 != 0),"tags":["t\#(index % 7)","t\#(index % 11)"],"note":"n\u00e9 \#(index)"}"#
            )
        }
        assertSameValue([BenchmarkItem].self, "[" + items.joined(separator: ",") + "]")
        assertSameValue(
            [String: BenchmarkItem].self,
            "{" + items.enumerated().map { "\"k\($0.offset)\":\($0.element)" }.joined(separator: ",") + "}")
    }
}
