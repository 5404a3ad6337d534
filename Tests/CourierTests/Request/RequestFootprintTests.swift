import XCTest

@testable import Courier
@testable import CourierSync

/// A request's locked state is one allocation per request. glibc serves an allocation of at most
/// 1,032 bytes from the calling thread's cache; a larger one goes through its bins, which cost
/// about 700 instructions more per request when the state once outgrew it (Benchmarks/EXPERIMENTS.md,
/// "Round 7"). The allocation counts of the budget test do not see that, so the size is held here.
final class RequestFootprintTests: XCTestCase {
    func testARequestsStateFitsInGlibcsPerThreadCache() {
        let request = Session().request(.url("http://127.0.0.1:9/never-sent"))
        let storage = request.state.storage
        let start = UnsafeRawPointer(Unmanaged.passUnretained(storage).toOpaque())
        // What the storage asks the allocator for: the object's header, the state, and its one
        // element (the mutex) at the end.
        let size = storage.withUnsafeMutablePointers { _, mutex in
            UnsafeRawPointer(mutex + 1) - start
        }
        XCTAssertGreaterThan(size, MemoryLayout<DataRequest.State>.size, "the state is in this allocation")
        XCTAssertLessThanOrEqual(
            size, 1032,
            "the request state's allocation (\(size) bytes) is past glibc's per-thread cache: keep large values out of DataRequest.State"
        )
    }
}
