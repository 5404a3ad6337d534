import Foundation
import CourierSync

/// The bounded hand-over between libcurl's write callback (the producer, on the engine thread)
/// and the task reading a streamed response body (the consumer).
///
/// The engine offers each piece of body; once ``window`` bytes wait unread the offer is refused,
/// the write callback pauses the transfer (`CURL_WRITEFUNC_PAUSE`, so libcurl keeps that piece
/// and stops reading the socket), and the consumer asks the engine to resume it, through the
/// engine's inbox, once it has read the queue down to half the window. Bytes held here never
/// exceed the window (pieces from libcurl are at most 16 KiB and the window is at least 64 KiB).
package final class ResponseStreamBuffer: Sendable {
    /// What the consumer gets next.
    enum Element {
        case chunk(Data)
        /// The transfer finished (with this error, if it failed); no more chunks.
        case end(CourierError?)
    }

    /// Chunks handed to the consumer grow up to a quarter of the window, at least this size,
    /// while it is not reading.
    static let minimumChunkCapacity = 64 << 10

    /// What became of offered bytes.
    enum Offer {
        /// Queued; the reader was woken if it waited for them.
        case accepted
        /// Queued; the waiting reader is to be woken by ``flush()`` at the end of the engine's
        /// round (one wake-up for all the pieces of a round instead of one per piece).
        case acceptedFlushLater
        /// The window is full: pause the transfer.
        case refused
    }
    /// The smallest window: four times libcurl's largest write-callback piece.
    static let minimumWindow = 64 << 10

    private struct State {
        /// Chunks ready for the reader, oldest first; the one being filled is ``filling``.
        var chunks: [Data] = []
        var filling: ChunkBuffer?
        var buffered = 0
        var received = 0
        var highWater = 0
        var head: ResponseHead?
        var ended = false
        var error: CourierError?
        var enginePaused = false
        var discarded = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var resume: (@Sendable () -> Void)?
        var pauses = 0
        var flushScheduled = false
    }

    /// The most body bytes held here at once.
    let window: Int
    /// A waiting reader is woken as soon as this much is queued (half the window); less waits
    /// for the end of the engine's round (for a fast body, until the network falls quiet or
    /// 1 ms has passed: `CurlEngineLoop.flushStreams(now:)`), so a fast body costs few wake-ups.
    let wakeThreshold: Int
    /// The largest chunk handed to the reader: a quarter of the window, at least 64 KiB (the
    /// size of the pool's buffers).
    var chunkCapacity: Int { pool.capacity }
    private let state = Locked(State())
    /// Chunk memory handed back by the reader's `Data` once it lets go of it, so a long body
    /// reuses a few warm buffers instead of a fresh allocation (and its page faults) per chunk.
    private let pool: ChunkPool

    init(window: Int) {
        self.window = max(window, Self.minimumWindow)
        wakeThreshold = self.window / 2
        let chunkCapacity = max(Self.minimumChunkCapacity, self.window / 4)
        pool = ChunkPool(capacity: chunkCapacity, keep: self.window / chunkCapacity + 2)
    }

    deinit {
        // A chunk still being filled was never sealed into `Data`: its memory is ours to return.
        if let filling = state.withLock({ $0.filling }) { pool.give(filling.base) }
    }

    // MARK: Engine side

    /// Called when the transfer is set up: `resume` asks the engine to unpause it.
    func attach(resume: @escaping @Sendable () -> Void) {
        state.withLock { $0.resume = resume }
    }

    /// The final response's status and headers, before its body.
    func deliverHead(_ head: ResponseHead) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.head = head
            return Self.takeWaiters(&state)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Queues body bytes; refuses them when the window is full (the caller pauses the transfer,
    /// and libcurl offers the same bytes again after it resumes). A waiting reader is woken at
    /// once when ``wakeThreshold`` bytes are ready, else by the next ``flush()``.
    func offer(_ bytes: UnsafeRawBufferPointer) -> Offer {
        let (offer, waiters) = state.withLock { state -> (Offer, [CheckedContinuation<Void, Never>]) in
            if state.discarded {
                state.received += bytes.count
                return (.accepted, [])
            }
            if state.buffered > 0, state.buffered + bytes.count > window {
                state.enginePaused = true
                state.pauses += 1
                return (.refused, [])
            }
            if let filling = state.filling, filling.count + bytes.count > chunkCapacity {
                state.chunks.append(pool.seal(filling))
                state.filling = nil
            }
            if bytes.count > chunkCapacity {
                state.chunks.append(Data(bytes))
            } else {
                var filling = state.filling ?? pool.take()
                filling.append(bytes)
                state.filling = filling
            }
            state.buffered += bytes.count
            state.received += bytes.count
            state.highWater = max(state.highWater, state.buffered)
            guard !state.waiters.isEmpty else { return (.accepted, []) }
            if state.buffered >= wakeThreshold { return (.accepted, Self.takeWaiters(&state)) }
            guard !state.flushScheduled else { return (.accepted, []) }
            state.flushScheduled = true
            return (.acceptedFlushLater, [])
        }
        for waiter in waiters { waiter.resume() }
        return offer
    }

    /// Wakes a reader waiting for bytes queued since the last wake-up. Engine thread, after a round.
    func flush() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.flushScheduled = false
            return state.chunks.isEmpty && state.filling == nil ? [] : Self.takeWaiters(&state)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The transfer ended, with `error` if it failed. The first call wins. A transport that
    /// never streamed (a stub) delivers its head and whole body here.
    func complete(head: ResponseHead?, body: Data, error: CourierError?) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.ended else { return [] }
            if state.head == nil, let head {
                state.head = head
                state.received += body.count
                if !body.isEmpty, !state.discarded {
                    state.chunks.append(body)
                    state.buffered += body.count
                }
            }
            state.ended = true
            state.error = error
            state.resume = nil
            return Self.takeWaiters(&state)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The head delivered so far, if any.
    var deliveredHead: ResponseHead? { state.withLock { $0.head } }

    /// Whether the transfer has ended, and its error.
    var end: (ended: Bool, error: CourierError?) { state.withLock { ($0.ended, $0.error) } }

    /// Everyone waiting re-checks what they wait for (a head, a chunk, the end) after any change.
    private static func takeWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        defer { state.waiters.removeAll() }
        return state.waiters
    }

    // MARK: Consumer side

    /// Waits for the head; nil when the transfer ended without one (its result says why).
    func head() async -> ResponseHead? {
        while true {
            let (head, ended) = state.withLock { ($0.head, $0.ended) }
            if head != nil || ended { return head }
            await wait { $0.head != nil || $0.ended }
        }
    }

    /// The next chunk, or the end. Resumes a paused transfer once half the window is free.
    func next() async -> Element {
        while true {
            let (element, resume) = state.withLock { state -> (Element?, (@Sendable () -> Void)?) in
                if state.chunks.isEmpty, let filling = state.filling {
                    state.chunks.append(pool.seal(filling))
                    state.filling = nil
                }
                if !state.chunks.isEmpty {
                    let chunk = state.chunks.removeFirst()
                    state.buffered -= chunk.count
                    var resume: (@Sendable () -> Void)?
                    if state.enginePaused, state.buffered <= window / 2 {
                        state.enginePaused = false
                        resume = state.resume
                    }
                    return (.chunk(chunk), resume)
                }
                if state.ended { return (.end(state.error), nil) }
                return (nil, nil)
            }
            resume?()
            if let element { return element }
            await wait { !$0.chunks.isEmpty || $0.filling != nil || $0.ended }
        }
    }

    /// Suspends until `ready` holds (checked under the lock before suspending).
    private func wait(until ready: (State) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if ready(state) { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// The consumer is gone: drop what is queued and accept (and drop) anything still offered.
    func discard() {
        let resume = state.withLock { state -> (@Sendable () -> Void)? in
            state.discarded = true
            state.chunks.removeAll()
            if let filling = state.filling { pool.give(filling.base) }
            state.filling = nil
            state.buffered = 0
            guard state.enginePaused else { return nil }
            state.enginePaused = false
            return state.resume
        }
        resume?()
    }

    /// Body bytes received so far (read, queued or dropped after the reader left).
    var receivedBytes: Int { state.withLock { $0.received } }

    /// Bytes queued and not yet read.
    var queuedBytes: Int { state.withLock { $0.buffered } }

    /// The most bytes that were queued at once (tests check it never exceeds the window).
    var highWater: Int { state.withLock { $0.highWater } }

    /// Free chunk buffers kept for reuse (tests).
    var keptChunks: Int { pool.keptCount }

    /// How many times the engine was told to pause.
    var pauseCount: Int { state.withLock { $0.pauses } }
}
