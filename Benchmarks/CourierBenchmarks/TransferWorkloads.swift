import BenchmarkFixtures
import Courier
import Foundation

/// W6 and W7: the 512 MiB file sent from disk, and the 512 MiB body read through the async byte
/// sequence. The buffers match the raw libcurl baseline's (RawCurlBaseline: UPLOAD_BUFFER,
/// STREAM_RECEIVE_BUFFER).
enum TransferWorkloads {
    static let uploadBuffer = 512 << 10
    static let streamReceiveBuffer = 256 << 10

    /// W6: `session.upload(.file(big.bin), to: /upload)`; nginx discards the body.
    static func uploadFromDisk(count: Int) throws -> Measurement {
        var configuration = Session.Configuration()
        configuration.uploadBufferSize = uploadBuffer
        configuration.timeouts.request = nil
        let session = Session(configuration: configuration)
        let file = Environment.fixtures.appendingPathComponent(Fixtures.bigName)
        return try runBlocking {
            var clock = Stopwatch()
            clock.start()
            var bytes = 0
            for _ in 0..<count {
                let request = session.upload(.file(file, contentType: "application/octet-stream"), to: BenchAPI.upload)
                let response = await request.validate().response()
                if let error = response.error { throw BenchmarkFailure("upload failed: \(error)") }
                guard let sent = response.metrics?.bytesSent, sent > Int64(Fixtures.bigSize) else {
                    throw BenchmarkFailure("sent \(response.metrics?.bytesSent ?? 0) bytes")
                }
                bytes += Fixtures.bigSize
            }
            return clock.stop(bytes: bytes)
        }
    }

    /// W7: every chunk of `streamRequest(big.bin).bytes` consumed (counted) as it arrives.
    static func streamBody(count: Int) throws -> Measurement {
        var configuration = Session.Configuration()
        configuration.receiveBufferSize = streamReceiveBuffer
        let session = Session(configuration: configuration)
        return try runBlocking {
            var clock = Stopwatch()
            clock.start()
            var bytes = 0
            for _ in 0..<count {
                var received = 0
                for try await chunk in session.streamRequest(BenchAPI.big).validate().bytes {
                    received += chunk.count
                }
                guard received == Fixtures.bigSize else { throw BenchmarkFailure("received \(received) bytes") }
                bytes += received
            }
            return clock.stop(bytes: bytes)
        }
    }
}
