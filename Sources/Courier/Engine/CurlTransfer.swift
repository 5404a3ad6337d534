import CCurl
import CCurlShim
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request in the curl engine: its easy handle, buffers and response state.
///
/// Everything but `cancel()` runs on the engine's loop thread, which is why the mutable state
/// needs no lock (`@unchecked Sendable`). The completion closure is called exactly once.
final class CurlTransfer: TransportCancellable, DeadlineQueueElement, @unchecked Sendable {
    enum Outcome {
        case complete(CourierError?)
        case redirect(HTTPRequest)
        /// Send the same request again: the server did not process it (see ``HTTP2Recovery``).
        case resend
        /// Send the same request again over HTTP/1.1: libcurl discarded an early HTTP/2
        /// response's head and body (see ``HTTP2Recovery/discardedEarlyResponse(_:)``).
        case resendOverHTTP1
    }

    @exclusivity(unchecked) private(set) var request: HTTPRequest
    let options: TransferOptions
    let engine: CurlEngine
    private let completion: @Sendable (TransportResult) -> Void
    private let cancelRequested = Atomic<Bool>(false)

    // Loop-thread state. Only the loop thread touches it, and no access to it overlaps another
    // (each is a plain read, assignment or call of a value type's own method, which calls nothing
    // back), so the runtime's dynamic exclusivity check (~200 instructions an access, ~25 accesses
    // a request) is switched off for it with `@exclusivity(unchecked)`.
    @exclusivity(unchecked) private(set) var easy: UnsafeMutableRawPointer?
    /// The header lines libcurl sends for this hop (shared with other transfers, see HeaderListCache).
    @exclusivity(unchecked) var headerList: CurlHeaderList?
    @exclusivity(unchecked) var bodyBuffer: UnsafeMutableRawPointer?
    let errorBuffer: UnsafeMutablePointer<CChar>
    @exclusivity(unchecked) private(set) var isFinished = false
    @exclusivity(unchecked) var body = Data()
    /// The response head as it arrives, cleaned and checked.
    @exclusivity(unchecked) var headParser = ResponseHeadParser()
    @exclusivity(unchecked) var receivedBodyBytes = 0
    @exclusivity(unchecked) var exceededSizeLimit = false
    /// The open destination file of a download, or -1.
    @exclusivity(unchecked) var fileDescriptor: Int32 = -1
    @exclusivity(unchecked) var fileWriteError: Int32 = 0
    @exclusivity(unchecked) var lastActivity = ContinuousClock.now
    @exclusivity(unchecked) var lastProgress: (Int64, Int64) = (0, 0)
    @exclusivity(unchecked) var head: ResponseHead?
    @exclusivity(unchecked) var metrics: TransferMetrics?
    @exclusivity(unchecked) var redirectCount = 0
    /// Times the request was sent again because an HTTP/2 server had not processed it.
    @exclusivity(unchecked) var unprocessedRetries = 0
    /// This hop is the HTTP/1.1 resend of an early HTTP/2 response libcurl discarded: the status
    /// that response had (delivered alone if the resend fails); nil otherwise.
    @exclusivity(unchecked) var http1ResendStatus: Int?
    @exclusivity(unchecked) var startedAt: ContinuousClock.Instant?
    @exclusivity(unchecked) var hopStartedAt: ContinuousClock.Instant?
    /// The current hop's HTTP/2 origin, if it may be multiplexed (set at creation and at each
    /// redirect, since only the URL decides it).
    @exclusivity(unchecked) private(set) var multiplexOrigin: String?
    /// When the whole request must be over (counted from submission, queueing and redirects
    /// included), if it has a limit.
    let requestDeadline: ContinuousClock.Instant?
    /// Streaming, progress and resume state; nil for plain requests (see CurlTransfer+Flow.swift).
    @exclusivity(unchecked) var flow: TransferFlow?
    /// The handle holds only session options and this request's own ones, each set explicitly:
    /// it may go back to the pool without a reset (see CurlTransfer+Configure.swift).
    @exclusivity(unchecked) var keepsSessionOptions = false
    /// The session options this transfer's handle carries (the session's own profile, shared).
    let handleProfile: HandleProfile
    /// The method is a plain GET or POST (HEAD and custom methods leave options behind).
    @exclusivity(unchecked) var keepsMethodOptions = false
    /// Where the transfer sits in the engine's ``CurlEngine/deadlines``; -1 when it has no
    /// deadline there. Set by that queue only.
    @exclusivity(unchecked) var deadlineSlot = -1

    init(
        request: HTTPRequest, options: TransferOptions, engine: CurlEngine,
        completion: @escaping @Sendable (TransportResult) -> Void
    ) {
        self.request = request
        self.options = options
        handleProfile = options.handleProfile
        self.engine = engine
        self.completion = completion
        multiplexOrigin = Self.multiplexOrigin(of: request, options: options)
        requestDeadline = options.requestTimeout.flatMap { limit in
            limit > 0 ? ContinuousClock.now + .milliseconds(Self.milliseconds(limit)) : nil
        }
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        errorBuffer.deallocate()
    }

    var isCancelRequested: Bool { cancelRequested.load(ordering: .acquiring) }

    /// Thread-safe; later calls and calls after completion do nothing.
    func cancel() {
        let (exchanged, _) = cancelRequested.compareExchange(
            expected: false, desired: true, ordering: .acquiringAndReleasing)
        if exchanged { engine.requestCancel(self) }
    }

    static func from(easy: UnsafeMutableRawPointer) -> CurlTransfer? {
        var pointer: UnsafeMutableRawPointer?
        guard courier_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &pointer) == CURLE_OK, let pointer else {
            return nil
        }
        return Unmanaged<CurlTransfer>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Creates and configures the easy handle for the current request. Returns an error instead
    /// of a handle when the request cannot be sent.
    func prepare(share: UnsafeMutableRawPointer?) -> CourierError? {
        if let error = openDestination() { return error }
        let now = ContinuousClock.now
        if startedAt == nil { startedAt = now }
        hopStartedAt = now
        guard let (handle, configured) = engine.obtainHandle(for: handleProfile) else {
            return .transport(code: -1, message: "curl_easy_init failed")
        }
        easy = handle
        errorBuffer[0] = 0
        return configure(handle, share: share, hasSessionOptions: configured)
    }

    /// Gives the easy handle back to the engine and frees the header list and body copy.
    /// The handle must be out of the multi. Loop thread only.
    func releaseHandle() {
        if let easy {
            engine.recycle(easy, keeping: keepsSessionOptions ? handleProfile : nil)
            self.easy = nil
            keepsSessionOptions = false
        }
        headerList = nil
        if let bodyBuffer {
            bodyBuffer.deallocate()
            self.bodyBuffer = nil
        }
    }

    /// Reads the metrics and the response head so far while the handle is still valid.
    func captureResponse() {
        guard let easy else { return }
        metrics = readMetrics(easy)
        var status = 0
        courier_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        let statusCode = status > 0 ? status : headParser.statusCode
        if statusCode > 0 {
            let url = request.url
            let version = metrics?.httpVersion
            head = ResponseHead(
                url: url, statusCode: statusCode,
                httpVersion: version?.rawValue, fields: headParser.fields)
        }
    }

    /// Reads the outcome of a finished transfer while its handle is still valid.
    func evaluate(code: CURLcode) -> Outcome {
        guard let easy else { return .complete(.transport(code: -1, message: "transfer has no handle")) }
        captureResponse()
        if code != CURLE_OK {
            if let failure = flow?.failure { return .complete(failure) }
            switch recoverHTTP2(code: code, easy: easy) {
            case .fail: return .complete(mapError(code))
            case .resend: return .resend
            case .resendOverHTTP1: return .resendOverHTTP1
            case .deliver: break
            }
        }
        let statusCode = head?.statusCode ?? 0
        if (300...399).contains(statusCode) {
            var location: UnsafeMutablePointer<CChar>?
            courier_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &location)
            let decision = RedirectDecision.decide(
                current: request, status: statusCode, location: location.map { String(cString: $0) },
                redirectsSoFar: redirectCount, policy: options.redirectPolicy,
                security: options.security)
            switch decision {
            case .follow(let next): return .redirect(next)
            case .fail(let error): return .complete(error)
            case .deliver: break
            }
        }
        return .complete(nil)
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
        multiplexOrigin = Self.multiplexOrigin(of: next, options: options)
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

    /// Delivers the result exactly once. Loop thread (or, before the loop ever saw it, the caller).
    func finish(error: CourierError?) {
        guard !isFinished else { return }
        isFinished = true
        let totals = finalProgress(error: error)
        finishFlow(totals)
        let resumeData = error.flatMap(resumeData(after:))
        closeDestination(keep: error == nil || resumeData != nil)
        if var metrics, let startedAt, let hopStartedAt {
            metrics.redirectCount = redirectCount
            metrics.redirectTime = Self.seconds(hopStartedAt - startedAt)
            self.metrics = metrics
        }
        var result = TransportResult(request: request, head: head, data: body, metrics: metrics, error: error)
        result.resumeData = resumeData
        result.transferred = totals
        body = Data()
        completion(result)
    }

    /// Completes a transfer that never reached the loop (the engine had shut down).
    func completeWithoutEngine(_ error: CourierError) {
        finish(error: error)
    }

    static func seconds(_ duration: Duration) -> TimeInterval {
        let parts = duration.components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
