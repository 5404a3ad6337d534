import Foundation

/// What the cache does with a request before anything is sent (``CacheRules/lookup``).
enum CacheLookup: Equatable, Sendable {
    /// Answer with the stored response; nothing is sent. `age` is its current age in seconds.
    case serve(CacheEntry, age: Int)
    /// Send the request with `conditions` added (`If-None-Match`, `If-Modified-Since`); a 304
    /// answer is merged into `entry` (``CacheRules/freshen``), another answer replaces it.
    case validate(CacheEntry, conditions: [CacheHeader])
    /// The caller's own conditional request (`If-None-Match`, `If-Modified-Since`) matches the
    /// fresh stored response: answer 304 (Not Modified) from `entry` (§4.3.2); nothing is sent.
    case notModified(CacheEntry, age: Int)
    /// Send the request as it is. `storable` is false when the request forbids storing its
    /// response (`no-store`, a range or conditional request of the caller's own, an unsafe method).
    case fetch(storable: Bool)
    /// `only-if-cached` and nothing usable is stored: answer 504 (Gateway Timeout), send nothing.
    case unsatisfiable
}

/// RFC 9111's rules for a private cache, as pure functions: no I/O, no clock (`now` is passed in).
enum CacheRules {
    /// Status codes whose responses may be given a heuristic lifetime (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]
    /// Methods that never change state on the server: no invalidation (RFC 9110 §9.2.1).
    static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]
    /// Header fields never stored, nor taken from a 304 (§3.1): hop-by-hop and proxy-specific.
    static let unstoredFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
        "proxy-authenticate", "proxy-authentication-info", "proxy-authorization"
    ]
    /// Request fields that make the caller's request one the cache does not answer or store: it
    /// asks for a part, or carries its own validators.
    static let bypassingRequestFields = ["range", "if-match", "if-unmodified-since", "if-range"]

    /// The primary cache key: the URL without its fragment.
    static func key(for url: URL) -> String {
        let text = url.absoluteString
        guard let hash = text.firstIndex(of: "#") else { return text }
        return String(text[..<hash])
    }

    // MARK: Before sending

    /// What to do with `request` given the entry stored under its key (if any) and `policy`.
    static func lookup(
        _ request: CacheRequest, stored: CacheEntry?, policy: Session.CachePolicy, now: Date
    ) -> CacheLookup {
        let method = request.method.uppercased()
        let requestControl = requestCacheControl(request.headers)
        let onlyIfCached = policy == .onlyIfCached || requestControl.onlyIfCached
        guard method == "GET" || method == "HEAD",
            !bypassingRequestFields.contains(where: request.headers.contains)
        else {
            return onlyIfCached ? .unsatisfiable : .fetch(storable: false)
        }
        let storable = method == "GET" && !requestControl.noStore
        if policy == .reloadIgnoringCache || requestControl.noStore {
            return onlyIfCached ? .unsatisfiable : .fetch(storable: storable)
        }
        guard let stored, matchesVariant(stored, request) else {
            return onlyIfCached ? .unsatisfiable : .fetch(storable: storable)
        }
        let age = currentAge(stored, now: now)
        if policy == .onlyIfCached { return .serve(stored, age: Int(age)) }
        let responseControl = CacheControl(fieldValues: stored.headers.values("Cache-Control"))
        let lifetime = freshnessLifetime(
            statusCode: stored.statusCode, headers: stored.headers, responseTime: stored.responseTime)
        var mustValidate = policy == .revalidate || requestControl.noCache || responseControl.noCache
        if !request.headers.contains("Cache-Control"), pragmaNoCache(request.headers) { mustValidate = true }
        if let maxAge = requestControl.maxAge, age > TimeInterval(maxAge) { mustValidate = true }
        if let minFresh = requestControl.minFresh, lifetime - age < TimeInterval(minFresh) { mustValidate = true }
        if age >= lifetime {
            let staleness = age - lifetime
            let tolerated = requestControl.maxStale.map { staleness <= TimeInterval($0) } ?? false
            if responseControl.mustRevalidate || !tolerated { mustValidate = true }
        }
        let conditional = request.headers.contains("If-None-Match") || request.headers.contains("If-Modified-Since")
        if !mustValidate {
            guard conditional else { return .serve(stored, age: Int(age)) }
            return evaluateConditions(request.headers, against: stored)
                ? .notModified(stored, age: Int(age)) : .serve(stored, age: Int(age))
        }
        if onlyIfCached { return .unsatisfiable }
        // The caller's own validators go to the server as they are; its answer is delivered as is.
        if conditional { return .fetch(storable: storable) }
        let conditions = validators(of: stored)
        return conditions.isEmpty ? .fetch(storable: storable) : .validate(stored, conditions: conditions)
    }

    /// The request's directives: `Cache-Control`, or `Pragma: no-cache` when it has none.
    static func requestCacheControl(_ headers: [CacheHeader]) -> CacheControl {
        CacheControl(fieldValues: headers.values("Cache-Control"))
    }

    private static func pragmaNoCache(_ headers: [CacheHeader]) -> Bool {
        headers.values("Pragma").contains { CacheControl.splitList($0).contains { $0.lowercased() == "no-cache" } }
    }

    /// The conditional fields that revalidate `entry`: `If-None-Match` with its `ETag`,
    /// `If-Modified-Since` with its `Last-Modified`.
    static func validators(of entry: CacheEntry) -> [CacheHeader] {
        var conditions: [CacheHeader] = []
        if let etag = entry.headers.first("ETag") { conditions.append(CacheHeader("If-None-Match", etag)) }
        if let modified = entry.headers.first("Last-Modified") {
            conditions.append(CacheHeader("If-Modified-Since", modified))
        }
        return conditions
    }

    /// Whether the caller's `If-None-Match` (weak comparison, `*` matching any), or without one
    /// its `If-Modified-Since`, holds for `entry`: the caller's copy is current (§4.3.2).
    static func evaluateConditions(_ headers: [CacheHeader], against entry: CacheEntry) -> Bool {
        if let noneMatch = headers.combined("If-None-Match") {
            guard let etag = entry.headers.first("ETag") else { return false }
            let tags = CacheControl.splitList(noneMatch)
            return tags.contains("*") || tags.contains { weakOpaqueTag($0) == weakOpaqueTag(etag) }
        }
        guard let since = headers.first("If-Modified-Since").flatMap(HTTPDate.parse) else { return false }
        let modified =
            entry.headers.first("Last-Modified").flatMap(HTTPDate.parse)
            ?? dateValue(entry.headers, responseTime: entry.responseTime)
        return modified <= since
    }

    private static func weakOpaqueTag(_ tag: String) -> String {
        tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }

    /// Whether `request` selects `entry` (§4.1): every field the response's `Vary` names has the
    /// same normalized value in both requests (absent in both counts as the same).
    static func matchesVariant(_ entry: CacheEntry, _ request: CacheRequest) -> Bool {
        selectingValues(
            names: varyNames(entry.headers), request: request.headers, credentials: entry.carriesCredentials)
            == entry.varying
    }

    // MARK: Freshness and age (§4.2)

    /// The freshness lifetime in seconds: `max-age`, else `Expires` − `Date`, else 10% of the time
    /// since `Last-Modified` for a heuristically cacheable status (or `public`), else 0.
    static func freshnessLifetime(statusCode: Int, headers: [CacheHeader], responseTime: Date) -> TimeInterval {
        let control = CacheControl(fieldValues: headers.values("Cache-Control"))
        if let maxAge = control.maxAge { return TimeInterval(maxAge) }
        let date = dateValue(headers, responseTime: responseTime)
        let expiresValues = headers.values("Expires")
        if !expiresValues.isEmpty {
            // An invalid Expires, or several, means "already expired" (§5.3).
            guard expiresValues.count == 1, let expires = HTTPDate.parse(expiresValues[0]) else { return 0 }
            return max(0, expires.timeIntervalSince(date))
        }
        guard heuristicallyCacheable.contains(statusCode) || control.isPublic,
            let modifiedText = headers.first("Last-Modified"), let modified = HTTPDate.parse(modifiedText),
            modified < date
        else { return 0 }
        return (date.timeIntervalSince(modified) / 10).rounded(.down)
    }

    /// The response's `Date`, or when it arrived if it has no valid one.
    static func dateValue(_ headers: [CacheHeader], responseTime: Date) -> Date {
        headers.first("Date").flatMap(HTTPDate.parse) ?? responseTime
    }

    /// The `Age` value (§5.1): the first value of the first line, when it is a non-negative integer.
    static func ageValue(_ headers: [CacheHeader]) -> TimeInterval {
        guard let line = headers.first("Age"), let first = CacheControl.splitList(line).first else { return 0 }
        let number = first.split(separator: ";", maxSplits: 1).first.map(String.init) ?? first
        return TimeInterval(CacheControl.deltaSeconds(number.trimmingCharacters(in: .whitespaces)) ?? 0)
    }

    /// The current age of `entry` at `now` in seconds (§4.2.3).
    static func currentAge(_ entry: CacheEntry, now: Date) -> TimeInterval {
        let date = dateValue(entry.headers, responseTime: entry.responseTime)
        let apparentAge = max(0, entry.responseTime.timeIntervalSince(date))
        let responseDelay = max(0, entry.responseTime.timeIntervalSince(entry.requestTime))
        let correctedAge = ageValue(entry.headers) + responseDelay
        let initialAge = max(apparentAge, correctedAge)
        return initialAge + max(0, now.timeIntervalSince(entry.responseTime))
    }

    // MARK: After receiving

    /// Whether a private cache may store `response` to `request` (§3).
    static func isStorable(_ request: CacheRequest, _ response: CacheResponse) -> Bool {
        guard request.method.uppercased() == "GET", (200...599).contains(response.statusCode),
            response.statusCode != 206, response.statusCode != 304,
            !requestCacheControl(request.headers).noStore
        else { return false }
        let control = CacheControl(fieldValues: response.headers.values("Cache-Control"))
        if control.noStore || varyNames(response.headers).contains("*") { return false }
        return control.isPublic || control.isPrivate || control.maxAge != nil || response.headers.contains("Expires")
            || heuristicallyCacheable.contains(response.statusCode)
    }

    /// The entry to store for `response` to `request`: unstored fields removed (§3.1), the
    /// secondary key taken from the request (§4.1).
    static func makeEntry(
        _ request: CacheRequest, _ response: CacheResponse, requestTime: Date, responseTime: Date
    ) -> CacheEntry {
        let credentials = request.headers.contains("Authorization")
        return CacheEntry(
            key: key(for: request.url), statusCode: response.statusCode, headers: storedFields(response.headers),
            body: response.body, requestTime: requestTime, responseTime: responseTime,
            varying: selectingValues(
                names: varyNames(response.headers), request: request.headers, credentials: credentials),
            carriesCredentials: credentials)
    }

    /// `entry` updated with a 304 answer to its validation (§4.3.4), or nil when the 304 names
    /// another representation (a strong `ETag` that differs): the caller then fetches again.
    static func freshen(
        _ entry: CacheEntry, with notModified: CacheResponse, requestTime: Date, responseTime: Date
    )
        -> CacheEntry?
    {
        if let newTag = notModified.headers.first("ETag"), !newTag.hasPrefix("W/"),
            let storedTag = entry.headers.first("ETag"), storedTag != newTag
        {
            return nil
        }
        var updated = entry
        let incoming = storedFields(notModified.headers).filter { !$0.name.caseInsensitiveEquals("Content-Length") }
        let replaced = Set(incoming.map { $0.name.lowercased() })
        updated.headers = entry.headers.filter { !replaced.contains($0.name.lowercased()) } + incoming
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }

    /// The keys an unsafe request's non-error response invalidates (§4.4): its target, and the
    /// `Location` and `Content-Location` URLs of the same origin.
    static func invalidatedKeys(_ request: CacheRequest, _ response: CacheResponse) -> [String] {
        guard !safeMethods.contains(request.method.uppercased()), (200..<400).contains(response.statusCode) else {
            return []
        }
        var keys = [key(for: request.url)]
        for name in ["Location", "Content-Location"] {
            guard let value = response.headers.first(name),
                let target = URL(string: value, relativeTo: request.url)?.absoluteURL,
                target.scheme?.lowercased() == request.url.scheme?.lowercased(),
                target.host?.lowercased() == request.url.host?.lowercased(), target.port == request.url.port
            else { continue }
            keys.append(key(for: target))
        }
        return keys
    }

    /// The response to give the caller for a stored entry served at `age`: the stored status,
    /// headers with `Age` set (§4), and the body (none for `HEAD`).
    static func servedResponse(_ entry: CacheEntry, age: Int, method: String) -> CacheResponse {
        var headers = entry.headers.filter { !$0.name.caseInsensitiveEquals("Age") }
        headers.append(CacheHeader("Age", String(max(0, age))))
        return CacheResponse(
            statusCode: entry.statusCode, headers: headers, body: method.uppercased() == "HEAD" ? Data() : entry.body)
    }

    /// The 304 (Not Modified) the cache answers a matching conditional request with (§4.3.2):
    /// the stored fields but `Content-Length`, `Age` set, no body.
    static func notModifiedResponse(_ entry: CacheEntry, age: Int) -> CacheResponse {
        var headers = entry.headers.filter {
            !$0.name.caseInsensitiveEquals("Age") && !$0.name.caseInsensitiveEquals("Content-Length")
        }
        headers.append(CacheHeader("Age", String(max(0, age))))
        return CacheResponse(statusCode: 304, headers: headers, body: Data())
    }

    /// The 504 an `only-if-cached` request gets when nothing usable is stored (§5.2.1.7).
    static let unsatisfiableResponse = CacheResponse(
        statusCode: 504, headers: [CacheHeader("Content-Length", "0")], body: Data())

    // MARK: Fields

    /// The field names a response's `Vary` lines list, lowercased (`*` kept).
    static func varyNames(_ headers: [CacheHeader]) -> [String] {
        headers.values("Vary").flatMap(CacheControl.splitList).map { $0.lowercased() }
    }

    private static func selectingValues(names: [String], request: [CacheHeader], credentials: Bool) -> [String: String]
    {
        var values: [String: String] = [:]
        for name in names + (credentials ? ["authorization"] : []) {
            guard let combined = request.combined(name) else { continue }
            var normalized = CacheControl.splitList(combined).joined(separator: ", ")
            if name == "accept-language" || name == "accept-encoding" { normalized = normalized.lowercased() }
            values[name] = normalized
        }
        return values
    }

    private static func storedFields(_ headers: [CacheHeader]) -> [CacheHeader] {
        let nominated = Set(headers.values("Connection").flatMap(CacheControl.splitList).map { $0.lowercased() })
        return headers.filter {
            let name = $0.name.lowercased()
            return !unstoredFields.contains(name) && !nominated.contains(name)
        }
    }
}
