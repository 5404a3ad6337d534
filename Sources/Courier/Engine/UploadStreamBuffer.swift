import Foundation
import CourierSync

/// The bounded hand-over between an async sequence of chunks (the producer, a task) and
/// libcurl's read callback (the consumer, the engine thread) for a streamed upload.
///
/// The producer waits while ``window`` bytes are queued, so memory stays flat whatever the body
/// size. When the queue runs dry the read callback pauses the upload; the next chunk asks the
/// engine (through its inbox) to resume it. The body can be sent once: a second send (a 307/308
/// redirect, a retry) fails with a clear error instead of sending a partial body.
package final class UploadStreamBuffer: Sendable {
    /// Produces the chunks by calling ``push(_:)``; returns at the end, throws on failure.
    typealias Producer = @Sendable (UploadStreamBuffer) async throws -> Void

    /// What a read from the engine got.
    enum Read {
        /// This many bytes were copied.
        case bytes(Int)
        /// Nothing queued yet: pause until the producer calls the resume handler.
        case pause
        /// The producer finished and everything was read.
        case end
        /// The producer failed (or the upload was cancelled).
        case failed(CourierError)
    }

    private struct State {
        var chunks: [Data] = []
        /// Bytes of `chunks[0]` already read.
        var readOffset = 0
        var buffered = 0
        var started = false
        var finished = false
        var failure: CourierError?
        var consumerPaused = false
        var producerWaiter: CheckedContinuation<Void, Never>?
        var task: Task<Void, Never>?
        var resume: (@Sendable () -> Void)?
        var highWater = 0
    }

    /// The declared total size, if the caller knows it (sent as `Content-Length`).
    let length: Int64?
    /// Most bytes queued between the producer and the engine.
    let window: Int
    private let producer: Producer
    private let state = Locked(State())

    init(length: Int64?, window: Int = 1 << 20, producer: @escaping Producer) {
        self.length = length
        self.window = max(window, 16 << 10)
        self.producer = producer
    }

    // MARK: Producer side

    /// Queues a chunk, waiting first while the queue is full. Returns false once the upload is
    /// over (finished, failed or cancelled): the producer should stop.
    @discardableResult
    func push(_ chunk: Data) async -> Bool {
        guard !chunk.isEmpty else { return true }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let full = state.withLock { state -> Bool in
                guard state.buffered >= window, state.failure == nil, !state.finished else { return false }
                state.producerWaiter = continuation
                return true
            }
            if !full { continuation.resume() }
        }
        let (accepted, resume) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            guard state.failure == nil, !state.finished else { return (false, nil) }
            state.chunks.append(chunk)
            state.buffered += chunk.count
            state.highWater = max(state.highWater, state.buffered)
            guard state.consumerPaused else { return (true, nil) }
            state.consumerPaused = false
            return (true, state.resume)
        }
        resume?()
        return accepted
    }

    private func producerEnded(_ failure: CourierError?) {
        let resume = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.finished, state.failure == nil else { return nil }
            if let failure { state.failure = failure } else { state.finished = true }
            guard state.consumerPaused else { return nil }
            state.consumerPaused = false
            return state.resume
        }
        resume?()
    }

    // MARK: Engine side

    /// Starts the producer; `resume` is called (from the producer's task) when data arrives
    /// after a read paused. Returns an error when the body was already sent once.
    func start(resume: @escaping @Sendable () -> Void) -> CourierError? {
        let alreadyStarted = state.withLock { state -> Bool in
            if state.started { return true }
            state.started = true
            state.resume = resume
            return false
        }
        if alreadyStarted {
            return .invalidRequest(
                reason: "a streamed upload body can be sent only once (it cannot be replayed for a redirect or retry)")
        }
        let task = Task { [producer] in
            do {
                try await producer(self)
                self.producerEnded(nil)
            } catch let error as CourierError {
                self.producerEnded(error)
            } catch {
                self.producerEnded(.invalidRequest(reason: "the upload body stream failed: \(error)"))
            }
        }
        state.withLock { $0.task = task }
        return nil
    }

    /// Copies queued bytes into libcurl's buffer.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Read {
        let (result, waiter) = state.withLock { state -> (Read, CheckedContinuation<Void, Never>?) in
            if let failure = state.failure { return (.failed(failure), nil) }
            var filled = 0
            while filled < capacity, !state.chunks.isEmpty {
                let chunk = state.chunks[0]
                let count = min(chunk.count - state.readOffset, capacity - filled)
                chunk.withUnsafeBytes { source in
                    if let base = source.baseAddress {
                        (buffer + filled).copyMemory(from: base + state.readOffset, byteCount: count)
                    }
                }
                filled += count
                state.readOffset += count
                if state.readOffset == chunk.count {
                    state.chunks.removeFirst()
                    state.readOffset = 0
                }
            }
            state.buffered -= filled
            var waiter: CheckedContinuation<Void, Never>?
            if state.buffered < window {
                waiter = state.producerWaiter
                state.producerWaiter = nil
            }
            if filled > 0 { return (.bytes(filled), waiter) }
            if state.finished { return (.end, waiter) }
            state.consumerPaused = true
            return (.pause, waiter)
        }
        waiter?.resume()
        return result
    }

    /// The most bytes that were queued at once (tests check the bound).
    var highWater: Int { state.withLock { $0.highWater } }

    /// Ends the upload: stops the producer and drops what is queued. Idempotent.
    func close() {
        let (task, waiter) = state.withLock { state -> (Task<Void, Never>?, CheckedContinuation<Void, Never>?) in
            if !state.finished && state.failure == nil { state.failure = .cancelled }
            state.chunks.removeAll()
            state.buffered = 0
            state.resume = nil
            let waiter = state.producerWaiter
            state.producerWaiter = nil
            return (state.task, waiter)
        }
        waiter?.resume()
        task?.cancel()
    }
}
