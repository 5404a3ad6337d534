import CCurl
import CCurlShim
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request in the curl engine: its easy handle, buffers and response state.
///
/// Loop-owned: created by ``CurlEngineLoop`` on its thread from a ``TransferToken``, and
/// reached only from there (the loop's tables, and libcurl's callbacks, which recover it from
/// their opaque pointer). Not `Sendable`: the caller holds the transfer's ``TransferToken``
/// instead. Where it stands is its ``lifecycle``; the completion closure is called exactly once.
final class CurlTransfer: DeadlineQueueElement {
    /// What follows a hop that ended with ``TransferLifecycle/HopEnd/again``.
    enum NextHop {
        case redirect(HTTPRequest)
        /// Send the same request again: the server did not process it (see ``HTTP2Recovery``).
        case resend
        /// Send the same request again over HTTP/1.1: libcurl discarded an early HTTP/2
        /// response's head and body (see ``HTTP2Recovery/discardedEarlyResponse(_:)``).
        case resendOverHTTP1
    }

    private(set) var request: HTTPRequest
    /// What the caller handed in: the options and the completion are read from it, not copied
    /// (`TransferOptions` holds Foundation types, whose copies go through the runtime).
    let token: TransferToken
    /// ``TransferOptions/bodyLimit``, worked out once: read for every chunk of the body, the
    /// computed property copied the whole options each time.
    let bodyLimit: Int?
    /// Where the transfer stands; the loop feeds it events (CurlEngineLoop+Transfers.swift).
    var lifecycle = TransferLifecycle()
    /// Where the transfer reports what the loop must know from its callbacks.
    let reports: TransferReports
    /// The loop's thread, for the debug-build checks of ``assertOnLoop()``.
    private let loopThread: pthread_t

    // Unchecked (see `CurlEngineLoop`'s comment): set in `prepare`, taken in `releaseHandle`,
    // read to get the pointer; no access calls out.
    /// The easy handle while the transfer holds one (see ``EasyHandle``).
    @exclusivity(unchecked) private(set) var easy: EasyHandle?
    /// The header lines libcurl sends for this hop (shared with other transfers, see HeaderListCache).
    var headerList: CurlHeaderList?
    /// The parsed URL the handle was given (`CURLOPT_CURLU`), kept while libcurl may read it.
    var urlHandle: CurlURLHandle?
    var bodyBuffer: UnsafeMutableRawPointer?
    // Unchecked: one `Data` operation per access (reserve, append, swap out, reset).
    @exclusivity(unchecked) var body = Data()
    // Unchecked: mutated only by `take` and `reset`, of a pure struct that calls nothing outside
    // itself; the callbacks that follow a line run after the access ends.
    /// The response head as it arrives, cleaned and checked.
    @exclusivity(unchecked) var headParser = ResponseHeadParser()
    var receivedBodyBytes = 0
    var exceededSizeLimit = false
    /// The open destination file of a download, or -1.
    var fileDescriptor: Int32 = -1
    var fileWriteError: Int32 = 0
    var lastActivity = MonotonicInstant.now
    var lastProgress: (Int64, Int64) = (0, 0)
    var head: ResponseHead?
    var metrics: TransferMetrics?
    var redirectCount = 0
    /// Times the request was sent again because an HTTP/2 server had not processed it.
    var unprocessedRetries = 0
    /// This hop is the HTTP/1.1 resend of an early HTTP/2 response libcurl discarded: the status
    /// that response had (delivered alone if the resend fails); nil otherwise.
    var http1ResendStatus: Int?
    var startedAt: MonotonicInstant?
    var hopStartedAt: MonotonicInstant?
    /// The current hop's HTTP/2 origin, if it may be multiplexed (set at creation and at each
    /// redirect, since only the URL decides it).
    private(set) var multiplexOrigin: String?
    /// The current hop's URL as text (what libcurl is given).
    private(set) var urlText: String
    /// What follows the hop that just ended, when another one does.
    private var nextHop: NextHop?
    /// When the whole request must be over (counted from submission, queueing and redirects
    /// included), if it has a limit.
    let requestDeadline: MonotonicInstant?
    /// Streaming, progress and resume state; nil for plain requests (see CurlTransfer+Flow.swift).
    var flow: TransferFlow?
    /// The handle holds only session options and this request's own ones, each set explicitly:
    /// it may go back to the pool without a reset (see CurlTransfer+Configure.swift).
    var keepsSessionOptions = false
    /// The session options this transfer's handle carries (the session's own profile, shared).
    let handleProfile: HandleProfile
    /// The method is a plain GET or POST (HEAD and custom methods leave options behind).
    var keepsMethodOptions = false
    /// The cookie jar is on: the handle's cookie engine must be switched on.
    var usesCookieJar = false
    /// Where the transfer sits in the loop's ``CurlEngineLoop/deadlines``; -1 when it has no
    /// deadline there. Set by that queue only.
    var deadlineSlot = -1

    /// Created by the loop, on its thread.
    init(_ token: TransferToken, reports: TransferReports, loopThread: pthread_t) {
        request = token.request
        self.token = token
        bodyLimit = token.options.bodyLimit
        requestDeadline = token.requestDeadline
        handleProfile = token.options.handleProfile
        self.reports = reports
        self.loopThread = loopThread
        urlText = token.urlText
        multiplexOrigin = token.multiplexOrigin
    }

    deinit {
        bodyBuffer?.deallocate()
    }

    /// The identity of the transfer in the loop's tables: its token's.
    var id: ObjectIdentifier { token.id }

    /// Whether the handle's method options are those of a GET without a body (see
    /// ``EasyHandle/sentPlainGET``): true once such a GET configured it, false once anything
    /// else did (a redirect's next hop configures the same handle again).
    var handleHasPlainGET: Bool {
        get { easy?.sentPlainGET ?? false }
        set { easy?.sentPlainGET = newValue }
    }

    /// The easy handle's pointer while the transfer holds one.
    var easyPointer: UnsafeMutableRawPointer? { easy?.pointer }

    /// The error buffer of the easy handle, while the transfer holds one.
    var errorBuffer: UnsafeMutablePointer<CChar>? { easy?.errorBuffer }

    /// libcurl's error message for this hop: empty when it gave none (or the handle is gone).
    var libcurlErrorMessage: String {
        guard let buffer = easy?.errorBuffer else { return "" }
        return String(cString: buffer)
    }

    /// Debug builds: traps unless called on the loop thread (libcurl's callbacks check on entry).
    @inline(__always)
    func assertOnLoop() {
        assert(pthread_equal(pthread_self(), loopThread) != 0, "transfer touched off the engine's loop thread")
    }

    static func from(easy: UnsafeMutableRawPointer) -> CurlTransfer? {
        var pointer: UnsafeMutableRawPointer?
        guard courier_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &pointer) == CURLE_OK, let pointer else {
            return nil
        }
        return Unmanaged<CurlTransfer>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Configures `handle` for the current request and takes it (a handle with a profile has
    /// that profile's session options); returns an error instead when the request cannot be sent
    /// (the handle is kept, for ``releaseHandle()``).
    func prepare(
        _ handle: consuming EasyHandle, share: UnsafeMutableRawPointer?, hasCookieJar: Bool,
        headerLists: inout HeaderListCache, urlHandles: inout URLHandleCache
    ) -> CourierError? {
        let pointer = handle.pointer
        let hasSessionOptions = handle.profile != nil
        headParser.adoptFieldStorage(handle.takeHeadStorage())
        easy = .some(consume handle)
        keepsSessionOptions = false
        usesCookieJar = hasCookieJar
        if let error = openDestination() { return error }
        let now = MonotonicInstant.now
        if startedAt == nil { startedAt = now }
        hopStartedAt = now
        easy?.errorBuffer[0] = 0
        return configure(
            pointer, share: share, hasSessionOptions: hasSessionOptions, headerLists: &headerLists,
            urlHandles: &urlHandles)
    }

    /// Gives up the easy handle, its profile set when it keeps the session options (nil: it must
    /// be reset) and the head's field storage kept with it, and frees the header list and body
    /// copy. The handle must be out of the multi.
    func releaseHandle() -> EasyHandle? {
        headerList = nil
        urlHandle = nil
        if let bodyBuffer {
            bodyBuffer.deallocate()
            self.bodyBuffer = nil
        }
        guard var handle = easy.take() else { return nil }
        // The head was captured (``captureResponse()``) before the handle is given up.
        handle.headStorage = headParser.takeFieldStorage()
        // A handle without a profile is reset when pooled, which also drops `sentPlainGET`.
        handle.profile = keepsSessionOptions ? handleProfile : nil
        keepsSessionOptions = false
        return handle
    }

    /// Reads the metrics and the response head so far while the handle is still valid.
    func captureResponse() {
        guard let easy = easyPointer else { return }
        metrics = readMetrics(easy)
        // The latest status line's code, as libcurl's CURLINFO_RESPONSE_CODE reports it; libcurl
        // is asked only when the parser saw none.
        var statusCode = headParser.statusCode
        if statusCode == 0 {
            courier_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &statusCode)
        }
        if statusCode > 0 {
            let url = request.url
            let version = metrics?.httpVersion
            head = ResponseHead(
                url: url, statusCode: statusCode,
                httpVersion: version?.rawValue, fields: headParser.fields.frozen(in: .shared))
        }
    }

    /// Reads how a finished hop ended while its handle is still valid; when another hop follows,
    /// ``beginNextHop()`` prepares it.
    func evaluate(code: CURLcode) -> (TransferLifecycle.HopEnd, CourierError?) {
        nextHop = nil
        guard let easy = easyPointer else {
            return (.complete, .transport(code: -1, message: "transfer has no handle"))
        }
        captureResponse()
        if code != CURLE_OK {
            if let failure = flow?.failure { return (.complete, failure) }
            switch recoverHTTP2(code: code, easy: easy) {
            case .fail: return (.complete, mapError(code))
            case .resend:
                nextHop = .resend
                return (.again, nil)
            case .resendOverHTTP1:
                nextHop = .resendOverHTTP1
                return (.again, nil)
            case .deliver: break
            }
        }
        let statusCode = head?.statusCode ?? 0
        if (300...399).contains(statusCode) {
            var location: UnsafeMutablePointer<CChar>?
            courier_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &location)
            let decision = RedirectDecision.decide(
                current: request, status: statusCode, location: location.map { String(cString: $0) },
                redirectsSoFar: redirectCount, policy: token.options.redirectPolicy,
                security: token.options.security)
            switch decision {
            case .follow(let next):
                nextHop = .redirect(next)
                return (.again, nil)
            case .fail(let error): return (.complete, error)
            case .deliver: break
            }
        }
        return (.complete, nil)
    }

    /// Prepares the hop ``evaluate(code:)`` found to follow.
    func beginNextHop() {
        switch nextHop {
        case .redirect(let next)?: beginRedirect(to: next)
        case .resend?: beginResend()
        case .resendOverHTTP1?: beginHTTP1Resend()
        case nil: break
        }
        nextHop = nil
    }

    /// Resets response state to send the same request again.
    func beginResend() {
        unprocessedRetries += 1
        resetResponseState()
        rewindDestination()
        head = nil
    }

    /// Resets response state to send the same request again over HTTP/1.1 on a new connection
    /// (``http1ResendStatus`` is set): it takes no HTTP/2 stream.
    func beginHTTP1Resend() {
        multiplexOrigin = nil
        resetResponseState()
        rewindDestination()
        head = nil
    }

    /// Resets response state for the next hop of a redirect chain.
    func beginRedirect(to next: HTTPRequest) {
        request = next
        urlText = next.url.absoluteString
        multiplexOrigin = Self.multiplexOrigin(of: next.url, text: urlText, options: token.options)
        http1ResendStatus = nil
        redirectCount += 1
        resetResponseState()
        rewindDestination()
        head = nil
    }

    func resetResponseState() {
        body = Data()
        headParser.reset()
        receivedBodyBytes = 0
        exceededSizeLimit = false
        lastProgress = (0, 0)
    }

    /// Delivers the result; called once, for the ``TransferLifecycle/Action/finish(_:)`` action.
    func finish(error: CourierError?) {
        let totals = finalProgress(error: error)
        finishFlow(totals)
        let resumeData = error.flatMap(resumeData(after:))
        closeDestination(keep: error == nil || resumeData != nil)
        if metrics != nil, let startedAt, let hopStartedAt {
            metrics?.redirectCount = redirectCount
            metrics?.redirectTime = hopStartedAt.seconds(since: startedAt)
        }
        // The response's parts are moved into the result, not copied: the transfer is over.
        var data = Data()
        swap(&data, &body)
        // Built in one expression: a result set part by part after `init` is copied whole.
        token.completion(
            TransportResult(
                request: request, head: head.take(), data: data, metrics: metrics.take(), error: error,
                resumeData: resumeData, transferred: totals))
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let parts = duration.components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
