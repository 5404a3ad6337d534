import Foundation

/// The generator's part of the report: the time courier-generate takes for a document (lines
/// written by `GenerateBenchmarks`, workload `generate`).
struct GenerateRun {
    var document: String
    var operations: Int
    var iterations: Int
    var seconds: Double
    var files: Int
    var bytes: Int

    var millisecondsPerDocument: Double { seconds / Double(iterations) * 1e3 }

    /// Parses `GENERATE <document> <operations> <iterations> <seconds> <files> <bytes>`.
    init?(line: Substring) {
        let f = line.split(separator: "\t").map(String.init)
        guard f.count == 7, f[0] == "GENERATE", let operations = Int(f[2]), let iterations = Int(f[3]),
            let seconds = Double(f[4]), let files = Int(f[5]), let bytes = Int(f[6]), iterations > 0, seconds > 0
        else { return nil }
        (document, self.operations, self.iterations, self.seconds, self.files, self.bytes) =
            (f[1], operations, iterations, seconds, files, bytes)
    }
}

extension Report {
    func renderGenerating(into out: inout [String]) {
        guard !generates.isEmpty else { return }
        out.append("")
        out.append(
            "courier-generate (GenerateBenchmarks, one run per round): the document to unformatted Swift in process "
                + "(parse, resolve, emit), and the whole command (also writing the files and running swift-format "
                + "over them); median (min–max) over the rounds.")
        out.append("")
        out.append("| document | operations | files | bytes written | ms per document |")
        out.append("|---|---|---|---|---|")
        for document in Set(generates.map(\.document)).sorted() {
            let runs = generates.filter { $0.document == document }
            let times = runs.map(\.millisecondsPerDocument)
            guard let median = Self.median(times), let low = times.min(), let high = times.max(), let first = runs.first
            else { continue }
            out.append(
                "| \(document) | \(first.operations) | \(first.files) | \(first.bytes) | "
                    + String(format: "%.1f (%.1f–%.1f)", median, low, high) + " |")
        }
    }
}
