import CCurl
import CCurlShim
@testable import Courier
import CourierSync
import CourierTestServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import XCTest

/// libcurl's memory functions (Sources/CCurlShim/curl_memory.c): each behaves as its C library
/// namesake, freed blocks are kept by the freeing thread within its budget and given back when
/// the thread exits, and libcurl uses them once Courier has initialized it. No sockets.
final class CurlMemoryTests: XCTestCase {
    /// Runs `body` on a thread of its own, which exits before this returns.
    private func onOwnThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
        done.wait()
        // The thread's exit (and its key destructors) follows `signal`; wait until it is gone.
        while !thread.isFinished { usleep(1_000) }
    }

    func testMallocGivesWritableBlocksOfEverySize() {
        onOwnThread {
            for size in [0, 1, 15, 16, 17, 1_024, 1_025, 2_048, 2_049, 16_385, 65_536, 65_537, 1 << 20] {
                guard let block = courier_curl_malloc(size) else { return XCTFail("no block of \(size) bytes") }
                XCTAssertEqual(Int(bitPattern: block) % 16, 0, "block of \(size) bytes is not 16-aligned")
                memset(block, 0xAB, size)
                let bytes = block.assumingMemoryBound(to: UInt8.self)
                if size > 0 { XCTAssertEqual(bytes[size - 1], 0xAB) }
                courier_curl_free(block)
            }
            courier_curl_free(nil)
        }
    }

    func testCallocZeroesReusedBlocks() {
        onOwnThread {
            // A block dirtied and kept, then handed out again by calloc, must come back zeroed.
            guard let dirty = courier_curl_malloc(100) else { return XCTFail("no block") }
            memset(dirty, 0xFF, 100)
            courier_curl_free(dirty)
            guard let clean = courier_curl_calloc(10, 10) else { return XCTFail("no block") }
            XCTAssertEqual(clean, dirty, "the kept block is reused")
            let bytes = UnsafeBufferPointer(start: clean.assumingMemoryBound(to: UInt8.self), count: 100)
            XCTAssertTrue(bytes.allSatisfy { $0 == 0 })
            courier_curl_free(clean)
            XCTAssertNil(courier_curl_calloc(Int.max, 2), "an overflowing size is refused")
        }
    }

    func testReallocKeepsTheContentsAcrossClassesAndLargeBlocks() {
        onOwnThread {
            var size = 10
            guard var block = courier_curl_malloc(size) else { return XCTFail("no block") }
            for index in 0..<size { block.storeBytes(of: UInt8(index & 0xFF), toByteOffset: index, as: UInt8.self) }
            // Grow through the small classes, the larger ones and past them, then shrink back.
            for next in [16, 500, 1_100, 5_000, 70_000, 300_000, 40_000, 20] {
                guard let moved = courier_curl_realloc(block, next) else { return XCTFail("realloc to \(next) failed") }
                let kept = min(size, next)
                for index in 0..<kept {
                    XCTAssertEqual(
                        moved.load(fromByteOffset: index, as: UInt8.self), UInt8(index & 0xFF),
                        "byte \(index) after realloc from \(size) to \(next)")
                }
                for index in kept..<next {
                    moved.storeBytes(of: UInt8(index & 0xFF), toByteOffset: index, as: UInt8.self)
                }
                block = moved
                size = next
            }
            courier_curl_free(block)
            guard let fresh = courier_curl_realloc(nil, 32) else { return XCTFail("realloc(NULL) failed") }
            courier_curl_free(fresh)
        }
    }

    func testStrdupCopiesTheString() {
        onOwnThread {
            guard let copy = courier_curl_strdup("Accept: application/json") else { return XCTFail("no copy") }
            XCTAssertEqual(String(cString: copy), "Accept: application/json")
            courier_curl_free(copy)
        }
    }

    func testAThreadKeepsFreedBlocksWithinItsBudgetAndGivesThemBackWhenItExits() {
        onOwnThread {
            XCTAssertEqual(courier_curl_memory_kept(), 0)
            // 3,000 blocks of 1 KiB: the thread keeps 1 MiB of them and frees the rest.
            let blocks = (0..<3_000).compactMap { _ in courier_curl_malloc(1_024) }
            XCTAssertEqual(blocks.count, 3_000)
            for block in blocks { courier_curl_free(block) }
            XCTAssertEqual(courier_curl_memory_kept(), 1 << 20)
            // Taking blocks back empties the lists first.
            let again = (0..<10).compactMap { _ in courier_curl_malloc(1_024) }
            XCTAssertEqual(courier_curl_memory_kept(), (1 << 20) - 10 * 1_024)
            for block in again { courier_curl_free(block) }
            // Larger blocks have a budget of their own (4 MiB): 64 KiB blocks, 64 of them kept.
            let large = (0..<100).compactMap { _ in courier_curl_malloc(60_000) }
            for block in large { courier_curl_free(block) }
            XCTAssertEqual(courier_curl_memory_kept(), (1 << 20) + (4 << 20))
            // Blocks past the largest class are never kept.
            if let huge = courier_curl_malloc(1 << 20) { courier_curl_free(huge) }
            XCTAssertEqual(courier_curl_memory_kept(), (1 << 20) + (4 << 20))
        }
        // A new thread starts with nothing kept; the exited thread's lists went back to free()
        // (under AddressSanitizer or Valgrind a leak would show).
        onOwnThread { XCTAssertEqual(courier_curl_memory_kept(), 0) }
    }

    func testBlocksFreedOnAnotherThreadAreKeptThere() {
        let address = Locked<UInt>(0)
        onOwnThread {
            let block = courier_curl_malloc(200)
            address.withLock { $0 = UInt(bitPattern: block) }
        }
        onOwnThread {
            let block = UnsafeMutableRawPointer(bitPattern: address.withLock { $0 })
            courier_curl_free(block)
            XCTAssertEqual(courier_curl_memory_kept(), 208)
            XCTAssertEqual(courier_curl_malloc(200), block, "the block is reused by the thread that freed it")
            courier_curl_free(block)
        }
    }

    /// In a process of its own (this test binary, running only this test), where Courier is the
    /// first to initialize libcurl: libcurl then allocates with these functions. In this process
    /// another test may have initialized libcurl first (URLSession does), and libcurl keeps the
    /// functions of whoever did.
    func testLibcurlUsesTheseFunctionsWhenCourierInitializesIt() throws {
        if ProcessInfo.processInfo.environment[Self.probeVariable] != nil { return probeInstalled() }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["CourierTests.CurlMemoryTests/testLibcurlUsesTheseFunctionsWhenCourierInitializesIt"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.probeVariable] = "1"
        if let options = environment["ASAN_OPTIONS"] {
            // The child's URLSession leaves FoundationNetworking's known leak inside libcurl; the
            // suppression for it matches only with the slow unwinder (scripts/test.sh).
            environment["ASAN_OPTIONS"] = options + " fast_unwind_on_malloc=0"
        }
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationStatus, 0, text)
        if Self.underSanitizer {
            XCTAssertTrue(text.contains("curl memory installed: 0"), text)
        } else {
            XCTAssertTrue(text.contains("curl memory installed: 1"), text)
        }
        XCTAssertTrue(text.contains("Executed 1 test, with 0 failures"), text)
    }

    private static let probeVariable = "COURIER_CURL_MEMORY_PROBE"

    /// The child's part: initializes libcurl through Courier, then checks that a block libcurl
    /// allocates and frees comes back to this thread's lists, and that Courier and URLSession (the
    /// other libcurl user on Linux) both work in this process.
    private func probeInstalled() {
        let session = Session()
        let installed = courier_curl_memory_installed()
        print("curl memory installed: \(installed)")
        do {
            let server = try TestHTTPServer()
            server.route("GET", "/plain") { _ in .text("just text") }
            let done = DispatchSemaphore(value: 0)
            let courierBody = Locked<Data?>(nil)
            session.request(.url(server.url("/plain"))).responseData { response in
                courierBody.withLock { $0 = try? response.result.get() }
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            XCTAssertEqual(courierBody.withLock { $0 }, Data("just text".utf8))
            let urlSession = URLSession(configuration: .ephemeral)
            defer { urlSession.invalidateAndCancel() }
            let urlSessionBody = Locked<Data?>(nil)
            urlSession.dataTask(with: server.url("/plain")) { data, _, _ in
                urlSessionBody.withLock { $0 = data }
                done.signal()
            }.resume()
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            XCTAssertEqual(urlSessionBody.withLock { $0 }, Data("just text".utf8))
        } catch {
            XCTFail("\(error)")
        }
        guard installed == 1 else { return }
        onOwnThread {
            // curl_easy_escape allocates its result with libcurl's malloc; curl_free gives it back.
            guard let escaped = curl_easy_escape(nil, "a b", 3) else { return XCTFail("no result") }
            XCTAssertEqual(String(cString: escaped), "a%20b")
            XCTAssertEqual(courier_curl_memory_kept(), 0)
            curl_free(escaped)
            XCTAssertGreaterThan(courier_curl_memory_kept(), 0, "the block came back to this thread's lists")
        }
    }

    /// Whether this process runs under AddressSanitizer or ThreadSanitizer (its runtime is
    /// loaded). Under either, Courier leaves libcurl the C library's allocator (curl_memory.c
    /// says why).
    private static let underSanitizer: Bool = {
        let runtimes: [String] = ["__asan_init", "__tsan_init"]
        return runtimes.contains { name in dlsym(dlopen(nil, RTLD_NOW), name) != nil }
    }()
}
