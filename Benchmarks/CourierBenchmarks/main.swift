import BenchmarkFixtures
import Foundation

// CourierBenchmarks: the Courier and URLSession sides of Benchmarks/run.sh (raw libcurl is the
// RawCurlBaseline C target). Main stays synchronous so that valgrind can run `w1sync`.
//
//   CourierBenchmarks fixtures <directory>
//   CourierBenchmarks run <courier|urlsession|async-engine> <workload> <count>
//       prints: RESULT <client> <workload> <count> <seconds> <cpu-seconds> <peak-rss-KiB> <bytes>
//               <user-seconds> <system-seconds> <voluntary-switches> <involuntary-switches>
//               <loop-thread-seconds> (the engine thread's CPU, or -1 without one)
//   CourierBenchmarks report <results.tsv> [<instructions.tsv>]
//   CourierBenchmarks deadlines <count>      (how late time limits fire; no nginx needed)
//   CourierBenchmarks cancel <count>         (from cancel() to the result; no nginx needed)

/// The benchmark workloads (see Benchmarks/EXPERIMENTS.md): requests against nginx (`w…`) and
/// parameter encoding without any network (`form-…`, Courier only). `w1logoff` and `w1logged`
/// are W1 through completion handlers with a `NetworkLogger` registered, at `.off` and at `.basic`
/// (discarding its lines): Courier only, for the cost of plugins. `w1park` is W1 with
/// `spinsBeforeParking` off (Courier only): what spin-then-park gains in the same run. `w6` uploads the 512 MiB file
/// from disk, `w7` reads the 512 MiB body through `streamRequest(_:).bytes` (Courier and raw libcurl).
/// `cache-hit`, `coalesce64` and `coalesce64-off`: the HTTP cache and request coalescing (Courier
/// only; CacheWorkloads.swift). `w2transport` is W2 through the session's transport alone, awaited
/// directly: Courier's engine without `DataRequest` (Courier only; the W2 layers of the report).
/// `w2head` is W2 sending the request head Courier sends, its three default lines included: by raw
/// libcurl (RawCurlBaseline), and by the async engine model with all of Courier's libcurl options
/// (the W2 layers of the report).
enum Workload: String, CaseIterable, Sendable {
    case w1, w1sync, w1park, w2, w2transport, w2head, w3, w3fetch, w4mem, w4file, w5, w6, w7, w1logoff, w1logged
    case formArray = "form-array", formKeys = "form-keys", formParameters = "form-params"
    case cacheHit = "cache-hit", coalesced = "coalesce64", uncoalesced = "coalesce64-off"

    /// Whether this workload only encodes parameters.
    var isEncoding: Bool { self == .formArray || self == .formKeys || self == .formParameters }
}

/// Who ran a workload. `rawCurl` and `rawEngine` come from the RawCurlBaseline C target:
/// `rawEngine` is the engine model (raw libcurl through one loop thread the way Courier's engine
/// drives it, Benchmarks/EngineModelLoop, with a C caller thread; W1, W2 and W5 only).
/// `asyncEngine` is the same loop with Swift tasks as callers (AsyncEngineModel.swift; W2, and
/// W2 with Courier's options and request head as `w2head`).
/// `courier`, `asyncEngine` and `urlSession` run here.
enum Client: String, CaseIterable, Sendable {
    case courier
    case rawCurl = "raw-curl"
    case rawEngine = "raw-engine"
    case asyncEngine = "async-engine"
    case urlSession = "urlsession"

    /// The clients of the main table's columns, in order.
    static let mainTable: [Client] = [.courier, .rawCurl, .urlSession]
}

func usage() -> Int32 {
    let message = """
        usage: CourierBenchmarks fixtures <directory>
               CourierBenchmarks run <courier|urlsession|async-engine> <\(Workload.allCases.map(\.rawValue).joined(separator: "|"))> <count>
               CourierBenchmarks report <results.tsv> [<instructions.tsv>]
               CourierBenchmarks deadlines <count>
               CourierBenchmarks cancel <count>

        """
    FileHandle.standardError.write(Data(message.utf8))
    return 2
}

func main(_ arguments: [String]) -> Int32 {
    do {
        switch arguments.first {
        case "fixtures" where arguments.count == 2:
            try Fixtures.generate(in: URL(fileURLWithPath: arguments[1]))
            return 0
        case "run" where arguments.count == 4:
            guard let client = Client(rawValue: arguments[1]), let workload = Workload(rawValue: arguments[2]),
                let count = Int(arguments[3]), count > 0
            else { return usage() }
            let measurement: Measurement
            switch client {
            case .courier: measurement = try CourierWorkloads.run(workload, count: count)
            case .urlSession: measurement = try URLSessionWorkloads.run(workload, count: count)
            case .asyncEngine: measurement = try AsyncEngineModel.run(workload, count: count)
            case .rawCurl, .rawEngine: return usage()
            }
            let fields: [String] = [
                "RESULT", client.rawValue, workload.rawValue, String(count),
                String(format: "%.6f", measurement.seconds), String(format: "%.6f", measurement.cpuSeconds),
                String(peakRSSKiB()), String(measurement.bytes),
                String(format: "%.6f", measurement.usage.userSeconds),
                String(format: "%.6f", measurement.usage.systemSeconds),
                String(measurement.usage.voluntarySwitches), String(measurement.usage.involuntarySwitches),
                measurement.loopThreadSeconds.map { String(format: "%.6f", $0) } ?? "-1"
            ]
            print(fields.joined(separator: "\t"))
            return 0
        case "cancel" where arguments.count == 2:
            guard let count = Int(arguments[1]), count > 0 else { return usage() }
            print(try CancelBench.run(count: count))
            return 0
        case "deadlines" where arguments.count == 2:
            guard let count = Int(arguments[1]), count > 0 else { return usage() }
            print(try DeadlineBench.run(count: count))
            return 0
        case "report" where arguments.count == 2 || arguments.count == 3:
            let results = try String(contentsOfFile: arguments[1], encoding: .utf8)
            let instructions = arguments.count == 3 ? try? String(contentsOfFile: arguments[2], encoding: .utf8) : nil
            print(Report(results: results, instructions: instructions ?? "").render())
            return 0
        default:
            return usage()
        }
    } catch {
        FileHandle.standardError.write(Data("CourierBenchmarks: \(error)\n".utf8))
        return 1
    }
}

exit(main(Array(CommandLine.arguments.dropFirst())))
