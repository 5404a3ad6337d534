/// Decides when the engine hands a transfer to an origin that multiplexes (HTTP/2 over TLS) to
/// libcurl.
///
/// libcurl 7.88 opens a new connection for every transfer that finds all streams of the
/// origin's connections busy, even while another new connection to the same origin is still
/// being set up (measured: 200 concurrent requests to a server allowing 50 streams per
/// connection opened up to 151 connections). So transfers wait here and go to libcurl one at a
/// time, each once the one before it has been placed: it either takes a free stream on an open
/// connection, or it opens the single new connection, which the others then share once it is
/// ready. The connection count stays near ceil(requests / stream limit), and no limit has to be
/// known or configured.
///
/// One more wait: until a connection has delivered a response, the server's SETTINGS frame
/// (its stream limit) may not have been processed, and libcurl then places up to 100 transfers
/// on it; a server allowing fewer refuses the excess, and libcurl sends each refused request
/// again on a new connection, giving up after 5 refusals ("Connection died, tried 5 times").
/// Against a server allowing one stream, 1,000 requests 50 at a time met some 60 refusals with
/// 32 streams allowed here (and 1 to 17 failed requests were reported), none with one. So a
/// connection that has not yet delivered a response carries a single transfer
/// (``unsettledStreams``); the rest wait here, in Courier's own queue. Once it has answered,
/// libcurl knows the server's limit and places no more than that on it, also when it reuses the
/// connection later: a connection stays settled while idle, until a new connection turns up on
/// its local port. (Forgetting that at idle made every reuse wait for a response again, so
/// against a server allowing one stream the requests went out one by one, over one connection.)
/// A server sends its SETTINGS first, before it reads a request, so a connection that has
/// carried a request for ``settleDelay`` counts as settled too: a slow first response (a long
/// poll) holds the others back that long at most. libcurl 7.88 tells nothing when the SETTINGS
/// arrive, so that delay is a bet on the server's speed; 200 ms lost it on a loaded test machine
/// (two streams refused in a clean-checkout run), hence a second.
///
/// An origin found to speak HTTP/1.x (one request per connection) is no longer gated:
/// libcurl's per-host connection limit queues its requests.
///
/// A pure state machine over transfer identifiers: the engine reports submissions, where each
/// started transfer landed, and departures; it asks which transfers to start.
struct StreamAdmission<ID: Hashable> {
    /// Where a started transfer stands, as read from libcurl after a perform.
    enum Placement: Equatable {
        /// Waiting for a connection that another transfer is setting up (or for the host limit).
        case waiting
        /// Setting up a new connection of its own.
        case opening
        /// Its request went out on `connection` (an identifier such as the local port);
        /// `isNew` when it opened that connection itself.
        case joined(connection: Int, isNew: Bool)
    }

    private struct Origin {
        var queue: [ID] = []
        /// Started, and not yet seen on a connection.
        var unplaced: Set<ID> = []
        /// Unplaced transfers seen opening a connection of their own (judged once).
        var openers: Set<ID> = []
        /// Connection of each placed transfer.
        var placed: [ID: Int] = [:]
        /// Transfers in flight per connection.
        var streams: [Int: Int] = [:]
        /// Connections that have delivered a response, so the server's settings are known.
        var settled: Set<Int> = []
        /// When a request was first seen on each connection in use.
        var joinedAt: [Int: MonotonicInstant] = [:]
        /// The most transfers seen sharing one connection.
        var mostStreams = 0
        /// Speaks HTTP/1.x: not gated any more.
        var serial = false
        /// Has delivered an HTTP/2 response: it multiplexes, whatever its stream limit.
        var multiplexes = false
    }

    private var origins: [String: Origin] = [:]
    private var originOf: [ID: String] = [:]

    /// The most transfers started on a connection before it delivers a response (its SETTINGS,
    /// sent before any response, are known after that).
    static var unsettledStreams: Int { 1 }

    /// How many settled connections an origin remembers, idle ones included, before it forgets
    /// the idle ones (a connection forgotten waits for a response once more when reused).
    static var rememberedConnections: Int { 256 }

    /// How long after a request first went out on a connection the server's SETTINGS are taken
    /// to be known even without a response.
    static var settleDelay: Duration { .seconds(1) }

    /// Registers a transfer for `origin`; it waits until ``admit()`` returns it.
    mutating func submit(_ id: ID, origin: String) {
        originOf[id] = origin
        origins[origin, default: Origin()].queue.append(id)
    }

    /// The transfers to start now, in submission order per origin.
    mutating func admit(now: MonotonicInstant = .now) -> [ID] {
        var started: [ID] = []
        for key in origins.keys where !(origins[key]?.queue.isEmpty ?? true) {
            guard var origin = origins[key] else { continue }
            let count = Self.admissible(origin, now: now)
            let batch = origin.queue.prefix(count)
            origin.queue.removeFirst(batch.count)
            if !origin.serial { origin.unplaced.formUnion(batch) }
            origins[key] = origin
            started += batch
        }
        return started
    }

    /// How many queued transfers of `origin` may start now: all for HTTP/1.x, else one at a time.
    ///
    /// Starting several at once is only safe up to the free streams, and the stream limit cannot
    /// be read from libcurl: before a connection's SETTINGS frame is processed libcurl places up
    /// to 100 transfers on it (nghttp2 queues those past the server's limit), so counting streams
    /// overstates the limit, and a batch sized from it turns into one new connection per excess
    /// transfer (measured: 64 connections for 200 requests). One at a time, each either takes a
    /// stream on an open connection in the next perform, or is the one transfer that opens a
    /// connection, so a burst never opens more than one connection at a time.
    private static func admissible(_ origin: Origin, now: MonotonicInstant) -> Int {
        if origin.serial { return origin.queue.count }
        guard origin.unplaced.isEmpty else { return 0 }
        return unsettledUntil(origin, now: now) == nil ? min(1, origin.queue.count) : 0
    }

    /// When the last full connection of `origin` whose settings are not known yet counts as
    /// settled; nil when there is none (transfers may start).
    private static func unsettledUntil(_ origin: Origin, now: MonotonicInstant) -> MonotonicInstant? {
        var until: MonotonicInstant?
        for (connection, count) in origin.streams
        where count >= unsettledStreams && !origin.settled.contains(connection) {
            let settles = (origin.joinedAt[connection] ?? now) + settleDelay
            if settles > now { until = max(until ?? settles, settles) }
        }
        return until
    }

    /// When transfers held back only because a connection's settings are not known yet may
    /// start (the engine wakes up then); nil when none is held back for that.
    func nextSettling(now: MonotonicInstant) -> MonotonicInstant? {
        var next: MonotonicInstant?
        for origin in origins.values where !origin.queue.isEmpty && !origin.serial && origin.unplaced.isEmpty {
            if let until = Self.unsettledUntil(origin, now: now) { next = min(next ?? until, until) }
        }
        return next
    }

    /// Transfers whose placement the engine should read after the next perform.
    var unplaced: [ID] {
        origins.isEmpty ? [] : origins.values.flatMap(\.unplaced)
    }

    /// Records where a started transfer stands, as seen at `now`.
    mutating func observe(_ id: ID, _ placement: Placement, now: MonotonicInstant = .now) {
        guard let key = originOf[id], var origin = origins[key], origin.unplaced.contains(id) else { return }
        defer { origins[key] = origin }
        switch placement {
        case .waiting:
            return
        case .opening:
            if origin.openers.insert(id).inserted { Self.learnFromNewConnection(&origin) }
        case .joined(let connection, let isNew):
            if isNew, !origin.openers.contains(id) { Self.learnFromNewConnection(&origin) }
            origin.openers.remove(id)
            origin.unplaced.remove(id)
            origin.placed[id] = connection
            // A new connection, though its local port may be that of one that has answered and
            // closed since: its server's settings are not known yet.
            if isNew { origin.settled.remove(connection) }
            if isNew || origin.joinedAt[connection] == nil { origin.joinedAt[connection] = now }
            let count = origin.streams[connection, default: 0] + 1
            origin.streams[connection] = count
            origin.mostStreams = max(origin.mostStreams, count)
        }
    }

    /// libcurl opened a new connection, so it found every open one full.
    private static func learnFromNewConnection(_ origin: inout Origin) {
        // A server that answered with HTTP/2 and allows one stream per connection is not HTTP/1.x.
        if !origin.multiplexes, origin.mostStreams <= 1, origin.streams.values.max() == 1 {
            // A second connection while the first carries one request: one request per
            // connection, as HTTP/1.x does. Stop gating; libcurl queues by its host limit.
            origin.serial = true
        }
    }

    /// An HTTP/2 response head arrived on `connection` for `id`: the server's settings are known there.
    mutating func responseArrived(_ id: ID, connection: Int) {
        guard let key = originOf[id], var origin = origins[key], origin.streams[connection] != nil else { return }
        origin.multiplexes = true
        origin.settled.insert(connection)
        origins[key] = origin
    }

    /// The origin answered with HTTP/1.x: stop gating it.
    mutating func markSerial(origin key: String) {
        guard var origin = origins[key], !origin.serial else { return }
        origin.serial = true
        origins[key] = origin
    }

    /// Whether `id` is still waiting to start.
    func isQueued(_ id: ID) -> Bool {
        guard let key = originOf[id] else { return false }
        return origins[key]?.queue.contains(id) ?? false
    }

    /// Forgets a transfer: it finished, failed, was cancelled, timed out, or moved to another
    /// origin (a redirect), whether it had started or was still waiting.
    mutating func remove(_ id: ID) {
        guard let key = originOf.removeValue(forKey: id), var origin = origins[key] else { return }
        if let index = origin.queue.firstIndex(of: id) { origin.queue.remove(at: index) }
        origin.unplaced.remove(id)
        origin.openers.remove(id)
        if let connection = origin.placed.removeValue(forKey: id) {
            let count = (origin.streams[connection] ?? 1) - 1
            origin.streams[connection] = count > 0 ? count : nil
            // An idle connection that has answered stays settled: when libcurl reuses it, it knows
            // the server's limit. (A new connection on the same port is told apart by `isNew`.)
            if count <= 0 {
                origin.joinedAt[connection] = nil
                if origin.settled.count > Self.rememberedConnections {
                    origin.settled = origin.settled.filter { origin.streams[$0] != nil }
                }
            }
        }
        // Forget idle origins (a process may talk to many hosts), except what marks HTTP/1.x ones.
        let idle = origin.queue.isEmpty && origin.unplaced.isEmpty && origin.placed.isEmpty
        origins[key] = idle && !origin.serial ? nil : origin
    }

    /// The most transfers seen sharing one connection of an origin (0 when nothing was seen).
    func mostStreams(origin key: String) -> Int {
        origins[key]?.mostStreams ?? 0
    }

    /// Whether an origin is known to speak HTTP/1.x.
    func isSerial(origin key: String) -> Bool {
        origins[key]?.serial ?? false
    }
}
