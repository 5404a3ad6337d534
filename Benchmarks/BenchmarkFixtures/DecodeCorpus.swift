import Foundation

/// The documents of the decoder micro-benchmark (see Benchmarks/EXPERIMENTS.md), generated
/// deterministically, and the models they decode into.
public enum DecodeCorpus {
    /// A named document.
    public struct Document: Sendable {
        public let name: String
        public let summary: String
        public let data: Data
    }

    public static func documents() -> [Document] {
        [
            Document(name: "small", summary: "1.2 KB user object", data: Fixtures.smallJSON()),
            Document(name: "array", summary: "193 KB array of 1,000 objects", data: Fixtures.arrayJSON()),
            Document(name: "nested", summary: "comment tree, 64 levels deep", data: nestedJSON()),
            Document(name: "strings", summary: "messages with escapes and non-ASCII text", data: stringsJSON()),
            Document(name: "numbers", summary: "samples of doubles and integers", data: numbersJSON()),
            Document(name: "freeform", summary: "the 193 KB array into JSONValue", data: Fixtures.arrayJSON())
        ]
    }

    /// A tree of about 1,600 comments: a reply chain 64 levels deep with short threads hanging off it.
    static func nestedJSON() -> Data {
        var random = Generator(seed: 11)
        var nextID = 0
        func comment(depth: Int) -> String {
            nextID += 1
            let id = nextID
            var replies: [String] = []
            if depth < 64 { replies.append(comment(depth: depth + 1)) }
            for _ in 0..<Int(random.next() % 3) where depth % 2 == 0 {
                replies.append(thread(length: 1 + Int(random.next() % 20)))
            }
            return #"{"id":\#(id),"author":"user\#(random.next() % 500)","score":\#(Int(random.next() % 2000) - 1000),"#
                + #""text":"reply at depth \#(depth)","replies":[\#(replies.joined(separator: ","))]}"#
        }
        func thread(length: Int) -> String {
            nextID += 1
            let tail = length > 1 ? thread(length: length - 1) : ""
            return #"{"id":\#(nextID),"author":"user\#(random.next() % 500)","score":\#(random.next() % 100),"#
                + #""text":"ok","replies":[\#(tail)]}"#
        }
        return Data(comment(depth: 1).utf8)
    }

    /// 300 messages whose text is full of escapes (`\n`, `\"`, `\u00e9`, surrogate pairs) and
    /// raw non-ASCII characters.
    static func stringsJSON() -> Data {
        var random = Generator(seed: 23)
        let fragments = [
            #"Hello \"friend\",\n"#, #"caf\u00e9 cr\u00e8me br\u00fbl\u00e9e"#, "naïve façade — ", "日本語のテキスト ",
            #"\ud83d\ude00\ud83c\udf89 "#, #"tab\tseparated\tvalues\r\n"#, #"C:\\path\\to\\file "#, "plain words here ",
            #"<a href=\"https://example.com/?q=1&r=2\">link<\/a> "#, "Ελληνικά κείμενα "
        ]
        var messages: [String] = []
        for index in 0..<300 {
            var body = ""
            for _ in 0..<(8 + Int(random.next() % 16)) {
                body += fragments[Int(random.next() % UInt64(fragments.count))]
            }
            messages.append(
                #"{"id":\#(index),"from":"sender\#(index % 37)@example.com","subject":"Re: \"topic\" #\#(index)","#
                    + #""body":"\#(body)","html":"<p>\#(body)<\/p>"}"#)
        }
        return Data(("[" + messages.joined(separator: ",") + "]").utf8)
    }

    /// 2,000 samples: a timestamp, three coordinates and eight readings each.
    static func numbersJSON() -> Data {
        var random = Generator(seed: 37)
        func double() -> String {
            let value = Double(Int64(bitPattern: random.next()) % 10_000_000_000) / 1_000_000.0
            return "\(value)"
        }
        var samples: [String] = []
        for index in 0..<2_000 {
            let readings = (0..<8).map { _ in double() }.joined(separator: ",")
            samples.append(
                #"{"t":\#(1_700_000_000_000 + index * 250),"x":\#(double()),"y":\#(double()),"z":\#(double()),"#
                    + #""values":[\#(readings)]}"#)
        }
        return Data(("[" + samples.joined(separator: ",") + "]").utf8)
    }

    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
    }
}

/// The small document's model.
public struct Profile: Decodable, Sendable {
    public let id: Int
    public let username: String
    public let email: String
    public let verified: Bool
    public let score: Double
    public let roles: [String]
    public let address: Address
    public let createdAt: String
    public let bio: String

    public struct Address: Decodable, Sendable {
        public let street: String
        public let city: String
        public let zip: String
        public let country: String
    }
}

/// The nested document's model.
public struct Comment: Decodable, Sendable {
    public let id: Int
    public let author: String
    public let score: Int
    public let text: String
    public let replies: [Comment]
}

/// The string-heavy document's model.
public struct Message: Decodable, Sendable {
    public let id: Int
    public let from: String
    public let subject: String
    public let body: String
    public let html: String
}

/// The number-heavy document's model.
public struct Sample: Decodable, Sendable {
    public let t: Int64
    public let x: Double
    public let y: Double
    public let z: Double
    public let values: [Double]
}
