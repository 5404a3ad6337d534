import BenchmarkFixtures
import CourierSync
import EngineModelLoop
import Foundation

/// The async engine model (client `async-engine`, W2 only): the engine model's loop
/// (Benchmarks/EngineModelLoop: raw libcurl driven the way Courier's engine drives it, on one loop
/// thread) with 64 Swift tasks as its callers. Each task hands its request to the loop and
/// awaits a continuation that the loop thread resumes, and it gets a fresh body per response,
/// allocated on the loop thread and freed on the task's, as an awaiting Courier request does. What
/// W2 costs with Swift concurrency and an engine thread but none of Courier's code: the floor for
/// Courier's W2 (Benchmarks/EXPERIMENTS.md, Round 20). With workload `w2head` the loop sets libcurl
/// up as Courier's engine does, Courier's request head included (`RAW_ENGINE_COURIER_OPTIONS=1`):
/// the floor for Courier's W2 as Courier is configured by default.
enum AsyncEngineModel {
    /// What the loop thread hands an awaiting task: the status and the body it now owns.
    struct Completed: Sendable {
        let status: Int
        /// The body's address (`malloc`ed; the task frees it), as a number so that it can cross threads.
        let body: UInt
        let length: Int
    }

    /// Where a task's continuation waits for the loop thread. Passed to the loop as the request's
    /// context (unretained: the task's caller closure holds it for the whole run).
    final class Slot: Sendable {
        let continuation = Locked<UnsafeContinuation<Completed, Never>?>(nil)
    }

    static func run(_ workload: Workload, count: Int) throws -> Measurement {
        guard workload == .w2 || workload == .w2head else {
            throw BenchmarkFailure("async-engine runs w2 and w2head only")
        }
        // The loop reads this when it starts (model_loop.h).
        if workload == .w2head { setenv("RAW_ENGINE_COURIER_OPTIONS", "1", 1) }
        guard let base = ProcessInfo.processInfo.environment["BENCH_BASE_URL"] else {
            throw BenchmarkFailure("BENCH_BASE_URL is not set")
        }
        let url = strdup(base + "/small.json")!
        defer { free(url) }
        let inFlight = CourierWorkloads.inFlight
        let done: model_done_t = { request, _ in
            guard let request, let context = request.pointee.context else { return }
            let slot = Unmanaged<Slot>.fromOpaque(context).takeUnretainedValue()
            let status = model_request_status(request)
            var length = 0
            let body = model_request_take_body(request, &length)
            let continuation = slot.continuation.withLock { $0.take() }
            continuation?.resume(returning: Completed(status: status, body: UInt(bitPattern: body), length: length))
        }
        guard let loop = model_loop_start(url, inFlight, nil, 0, 0, done, nil) else {
            throw BenchmarkFailure("the engine model's loop did not start")
        }
        defer { model_loop_stop(loop) }
        // Addresses as numbers, so that the tasks can take them.
        let requests = (0..<inFlight).map { UInt(bitPattern: model_loop_request(loop, $0)) }
        let loopAddress = UInt(bitPattern: loop)
        return try CourierWorkloads.keepInFlight(count: count) { task in
            let address = requests[task]
            let slot = Slot()
            return {
                let request = UnsafeMutablePointer<model_request_t>(bitPattern: address)!
                let loop = OpaquePointer(bitPattern: loopAddress)!
                let completed = await withUnsafeContinuation { continuation in
                    slot.continuation.withLock { $0 = continuation }
                    request.pointee.context = Unmanaged.passUnretained(slot).toOpaque()
                    model_loop_submit(loop, request)
                }
                // The body is the task's now, freed on its thread when this `Data` goes.
                let body =
                    if let pointer = UnsafeMutableRawPointer(bitPattern: completed.body) {
                        Data(bytesNoCopy: pointer, count: completed.length, deallocator: .free)
                    } else {
                        Data()
                    }
                guard completed.status == 200 else {
                    throw BenchmarkFailure("async-engine: status \(completed.status)")
                }
                return body.count
            }
        }
    }
}
