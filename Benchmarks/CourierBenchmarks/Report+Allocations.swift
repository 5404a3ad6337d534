import Foundation

// Heap allocations per W1 request, counted the same way for every client by run.sh's counted
// mode: Benchmarks/MallocCounter's counting wrappers preloaded into the process (LD_PRELOAD),
// the count read at exit after two runs of different lengths; the difference over the difference
// in requests is what one more request allocates (start-up and warm-up cancel out).

extension Report {
    /// One client's two counts: `ALLOC <client> <label> <n1> <count1> <n2> <count2>`.
    struct Allocations {
        var client: Client
        /// What ran, for the table (the workload, or the form of the call).
        var label: String
        var counts: (Int, Int)
        var allocations: (Double, Double)
        var perRequest: Double { (allocations.1 - allocations.0) / Double(counts.1 - counts.0) }

        init?(line: Substring) {
            let f = line.split(separator: "\t").map(String.init)
            guard f.count == 7, f[0] == "ALLOC", let client = Client(rawValue: f[1]), let n1 = Int(f[3]),
                let a1 = Double(f[4]), let n2 = Int(f[5]), let a2 = Double(f[6]), n2 > n1
            else { return nil }
            self.client = client
            label = f[2]
            counts = (n1, n2)
            allocations = (a1, a2)
        }
    }

    func renderAllocations(into out: inout [String]) {
        guard !allocations.isEmpty else { return }
        out.append("")
        out.append(
            "Heap allocations per W1 request (Benchmarks/MallocCounter's wrappers preloaded into each client, "
                + "marginal over the two runs):")
        out.append("")
        out.append("| client | what ran | requests | allocations | requests | allocations | per request | ÷ raw |")
        out.append("|---|---|---|---|---|---|---|---|")
        let raw = allocations.first { $0.client == .rawCurl }?.perRequest
        for entry in allocations {
            let ratio = raw.map { $0 > 0 ? String(format: "%.2f×", entry.perRequest / $0) : "—" } ?? "—"
            out.append(
                "| \(entry.client.rawValue) | \(entry.label) | \(entry.counts.0) | "
                    + "\(String(format: "%.0f", entry.allocations.0)) | \(entry.counts.1) | "
                    + "\(String(format: "%.0f", entry.allocations.1)) | \(String(format: "%.2f", entry.perRequest)) | "
                    + "\(ratio) |")
        }
    }
}
