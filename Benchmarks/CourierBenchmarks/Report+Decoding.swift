import Foundation

/// The decoder micro-benchmark's part of the report: Foundation's `JSONDecoder` against
/// `CourierJSONDecoder` on each corpus document (lines written by `DecodeBenchmarks`).
struct DecodeRun {
    var document: String
    var decoder: String
    var iterations: Int
    var seconds: Double
    var allocations: Int
    var bytes: Int

    var microsecondsPerDocument: Double { seconds / Double(iterations) * 1e6 }
    var allocationsPerDocument: Double { Double(allocations) / Double(iterations) }

    /// Parses `DECODE <document> <decoder> <iterations> <seconds> <allocations> <bytes>`.
    init?(line: Substring) {
        let f = line.split(separator: "\t").map(String.init)
        guard f.count == 7, f[0] == "DECODE", let iterations = Int(f[3]), let seconds = Double(f[4]),
            let allocations = Int(f[5]), let bytes = Int(f[6]), iterations > 0, seconds > 0
        else { return nil }
        (document, decoder, self.iterations, self.seconds, self.allocations, self.bytes) =
            (f[1], f[2], iterations, seconds, allocations, bytes)
    }
}

extension Report {
    static let decodeDocuments: [(String, String)] = [
        ("small", "1.2 KB object"), ("array", "193 KB array of 1,000 objects"), ("nested", "comment tree, 64 levels"),
        ("strings", "string-heavy, escapes and non-ASCII"), ("numbers", "number-heavy samples"),
        ("freeform", "the 193 KB array into JSONValue")
    ]

    /// Foundation time ÷ Courier time for each measurement pair (same round, same document).
    func decodeRatios(_ document: String) -> [Double] {
        let foundation = decodes.filter { $0.document == document && $0.decoder == "foundation" }
        let courier = decodes.filter { $0.document == document && $0.decoder == "courier" }
        return zip(foundation, courier).map { $0.microsecondsPerDocument / $1.microsecondsPerDocument }
    }

    func renderDecoding(into out: inout [String]) {
        guard !decodes.isEmpty else { return }
        let rounds = Set(decodes.map(\.document)).map { document in decodeRatios(document).count }.max() ?? 0
        out.append("")
        out.append(
            "Decoding without network (DecodeBenchmarks, \(rounds) interleaved rounds): µs per document, median; "
                + "ratio = JSONDecoder time ÷ CourierJSONDecoder time, median (min–max) of the per-round ratios.")
        out.append("")
        out.append("| document | bytes | JSONDecoder µs | CourierJSONDecoder µs | ratio | allocations/doc J · C |")
        out.append("|---|---|---|---|---|---|")
        for (document, label) in Self.decodeDocuments {
            let foundation = decodes.filter { $0.document == document && $0.decoder == "foundation" }
            let courier = decodes.filter { $0.document == document && $0.decoder == "courier" }
            let ratios = decodeRatios(document)
            guard let f = Self.median(foundation.map(\.microsecondsPerDocument)),
                let c = Self.median(courier.map(\.microsecondsPerDocument)),
                let ratio = Self.median(ratios), let low = ratios.min(), let high = ratios.max()
            else { continue }
            let fAllocations = Self.median(foundation.map(\.allocationsPerDocument)) ?? 0
            let cAllocations = Self.median(courier.map(\.allocationsPerDocument)) ?? 0
            out.append(
                "| \(document): \(label) | \(courier.first?.bytes ?? 0) | \(Self.number(f)) | \(Self.number(c)) | "
                    + String(format: "%.2f× (%.2f–%.2f)", ratio, low, high)
                    + " | \(String(format: "%.0f", fAllocations)) · \(String(format: "%.0f", cAllocations)) |")
        }
    }

    func decodingTargets(into out: inout [String]) {
        for (document, _) in Self.decodeDocuments {
            guard let ratio = Self.median(decodeRatios(document)) else {
                if !decodes.isEmpty { out.append("| decode \(document) ≥ 4× JSONDecoder | not measured | — |") }
                continue
            }
            out.append(
                "| decode \(document) ≥ 4× JSONDecoder | \(String(format: "%.2f×", ratio)) | \(ratio >= 4 ? "yes" : "**NO**") |"
            )
        }
    }
}
