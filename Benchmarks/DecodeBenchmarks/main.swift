import BenchmarkFixtures
import Courier
import Dispatch
import Foundation
import MallocCounter

// DecodeBenchmarks: Foundation's JSONDecoder against CourierJSONDecoder over the decoder corpus
// (Benchmarks/BenchmarkFixtures/DecodeCorpus.swift), in one process, interleaved.
//
//   DecodeBenchmarks [--rounds N] [--seconds S] [--documents small,array,...] [--only courier|foundation]
//                    [--iterations N] [--clock wall|cpu]
//
// For every round and document, both decoders decode the same bytes the same number of times
// (the order alternates between rounds). `--clock cpu` times the decoding thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID) instead of wall time: on a machine busy with other work, time spent
// waiting for a core then counts for neither decoder. Prints one line per measurement:
//   DECODE <document> <foundation|courier> <iterations> <seconds> <allocations> <bytes>
// and a summary table on standard error.

struct Options {
    var rounds = 5
    var seconds = 0.3
    var documents: Set<String>?
    /// Only this decoder, for profiling (no comparison is printed).
    var only: String?
    /// A fixed number of decodes per measurement instead of `seconds` worth.
    var iterations: Int?
    /// Thread CPU time instead of wall time.
    var cpuClock = false

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let option = rest.popFirst() {
            guard let value = rest.popFirst() else { throw BenchmarkFailure("missing value for \(option)") }
            switch option {
            case "--rounds": rounds = Int(value) ?? rounds
            case "--seconds": seconds = Double(value) ?? seconds
            case "--documents": documents = Set(value.split(separator: ",").map(String.init))
            case "--only": only = value
            case "--iterations": iterations = Int(value)
            case "--clock": cpuClock = value == "cpu"
            default: throw BenchmarkFailure("unknown option \(option)")
            }
        }
    }
}

/// Decodes a document with a decoder and returns a count that both decoders must agree on.
typealias DecodeCase = @Sendable (any DataDecoder, Data) throws -> Int

let cases: [String: DecodeCase] = [
    "small": { try $0.decode(Profile.self, from: $1).roles.count },
    "array": { try $0.decode([Item].self, from: $1).count },
    "nested": { decoder, data in
        func count(_ comment: Comment) -> Int { 1 + comment.replies.reduce(0) { $0 + count($1) } }
        return count(try decoder.decode(Comment.self, from: data))
    },
    "strings": { try $0.decode([Message].self, from: $1).reduce(0) { $0 + $1.body.utf8.count } },
    "numbers": { try $0.decode([Sample].self, from: $1).reduce(0) { $0 + $1.values.count } },
    // Free-form JSON (`JSONValue`): every object, array, string and number of the array document.
    "freeform": { decoder, data in
        func count(_ value: JSONValue) -> Int {
            switch value {
            case .array(let elements): return elements.reduce(1) { $0 + count($1) }
            case .object(let members): return members.values.reduce(1) { $0 + count($1) }
            default: return 1
            }
        }
        return count(try decoder.decode(JSONValue.self, from: data))
    }
]

struct Timing {
    var seconds: Double
    var allocations: UInt64
}

/// Nanoseconds of wall time, or of this thread's CPU time.
func clock(cpu: Bool) -> UInt64 {
    guard cpu else { return DispatchTime.now().uptimeNanoseconds }
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

@inline(never)
func measure(
    _ decoder: any DataDecoder, _ data: Data, _ decode: DecodeCase, iterations: Int, cpu: Bool = false
) throws -> Timing {
    let allocationsBefore = courier_allocation_count()
    let start = clock(cpu: cpu)
    var checksum = 0
    for _ in 0..<iterations { checksum &+= try decode(decoder, data) }
    let elapsed = Double(clock(cpu: cpu) - start) / 1e9
    let allocations = courier_allocation_count() - allocationsBefore
    if checksum == .min { print(checksum) }  // keeps the work observable
    return Timing(seconds: elapsed, allocations: allocations)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func run() throws {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let foundation = JSONDecoder()
    let courier = CourierJSONDecoder()
    let documents = DecodeCorpus.documents().filter { options.documents?.contains($0.name) ?? true }
    var iterations: [String: Int] = [:]
    for document in documents {
        guard let decode = cases[document.name] else { throw BenchmarkFailure("no decode case for \(document.name)") }
        let expected = try decode(foundation, document.data)
        guard try decode(courier, document.data) == expected else {
            throw BenchmarkFailure("\(document.name): results differ")
        }
        if let fixed = options.iterations {
            iterations[document.name] = fixed
            continue
        }
        for _ in 0..<3 {
            _ = try decode(foundation, document.data)
            _ = try decode(courier, document.data)
        }
        // Size each measurement to about `seconds` of Foundation's time.
        let probe = try measure(foundation, document.data, decode, iterations: 3)
        iterations[document.name] = max(3, Int(options.seconds / max(probe.seconds / 3, 1e-7)))
    }
    var perDocument:
        [String: (foundation: [Double], courier: [Double], ratios: [Double], allocations: (UInt64, UInt64))] = [:]
    for round in 0..<options.rounds {
        for document in documents {
            let decode = cases[document.name]!
            let count = iterations[document.name]!
            var results: [String: Timing] = [:]
            let order: [(String, any DataDecoder)] =
                round % 2 == 0
                ? [("foundation", foundation), ("courier", courier)]
                : [("courier", courier), ("foundation", foundation)]
            for (name, decoder) in order where options.only == nil || options.only == name {
                let sample = try measure(decoder, document.data, decode, iterations: count, cpu: options.cpuClock)
                results[name] = sample
                print(
                    [
                        "DECODE", document.name, name, String(count), String(format: "%.6f", sample.seconds),
                        String(sample.allocations), String(document.data.count)
                    ].joined(separator: "\t"))
            }
            guard let f = results["foundation"], let c = results["courier"] else { continue }
            var entry = perDocument[document.name] ?? ([], [], [], (0, 0))
            entry.foundation.append(f.seconds / Double(count))
            entry.courier.append(c.seconds / Double(count))
            entry.ratios.append(f.seconds / c.seconds)
            entry.allocations = (f.allocations / UInt64(count), c.allocations / UInt64(count))
            perDocument[document.name] = entry
        }
    }
    var summary = "document  bytes   Foundation µs  Courier µs  ratio (min-max)   allocations/doc F · C\n"
    for document in documents {
        guard let entry = perDocument[document.name] else { continue }
        summary += String(
            format: "%-8@ %7d %13.1f %11.1f %6.2f× (%.2f-%.2f)   %llu · %llu\n", document.name as NSString,
            document.data.count, median(entry.foundation) * 1e6, median(entry.courier) * 1e6,
            median(entry.ratios), entry.ratios.min()!, entry.ratios.max()!, entry.allocations.0, entry.allocations.1)
    }
    FileHandle.standardError.write(Data(summary.utf8))
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("DecodeBenchmarks: \(error)\n".utf8))
    exit(1)
}
