import Foundation

// Heap allocations per W1 request, counted the same way for every client by run.sh's counted
// mode: Benchmarks/MallocCounter's counting wrappers preloaded into the process (LD_PRELOAD),
// the count read at exit after two runs of different lengths; the difference over the difference
// in requests is what one more request allocates (start-up and warm-up cancel out).

extension Report {
    /// One client's two runs:
    /// `ALLOC <client> <label> <n1> <allocations1> <n2> <allocations2> <mallocs1> <mallocs2>`.
    struct Allocations {
        var client: Client
        /// What ran, for the table (the workload, or the form of the call).
        var label: String
        var counts: (Int, Int)
        /// Every allocation: malloc, calloc, realloc of NULL and the aligned forms.
        var allocations: (Double, Double)
        /// Calls to `malloc` as callgrind counts them (a realloc of NULL included, which glibc serves
        /// through malloc): the measure issue 21's figures (59 for Courier, 23 for raw libcurl when
        /// it was filed) were given in.
        var mallocs: (Double, Double)
        var perRequest: Double { (allocations.1 - allocations.0) / Double(counts.1 - counts.0) }
        var mallocsPerRequest: Double { (mallocs.1 - mallocs.0) / Double(counts.1 - counts.0) }

        init?(line: Substring) {
            let f = line.split(separator: "\t").map(String.init)
            guard f.count == 9, f[0] == "ALLOC", let client = Client(rawValue: f[1]), let n1 = Int(f[3]),
                let a1 = Double(f[4]), let n2 = Int(f[5]), let a2 = Double(f[6]), let m1 = Double(f[7]),
                let m2 = Double(f[8]), n2 > n1
            else { return nil }
            self.client = client
            label = f[2]
            counts = (n1, n2)
            allocations = (a1, a2)
            mallocs = (m1, m2)
        }
    }

    func renderAllocations(into out: inout [String]) {
        guard !allocations.isEmpty else { return }
        out.append("")
        out.append(
            "Heap allocations per W1 request (Benchmarks/MallocCounter's wrappers preloaded into each client, "
                + "marginal over the two runs):")
        out.append("")
        out.append(
            "| client | what ran | requests | allocations | requests | allocations | per request | ÷ raw "
                + "| calls to malloc per request | ÷ raw |")
        out.append("|---|---|---|---|---|---|---|---|---|---|")
        let raw = allocations.first { $0.client == .rawCurl }
        func ratio(_ value: Double, _ base: Double?) -> String {
            base.map { $0 > 0 ? String(format: "%.2f×", value / $0) : "—" } ?? "—"
        }
        for entry in allocations {
            out.append(
                "| \(entry.client.rawValue) | \(entry.label) | \(entry.counts.0) | "
                    + "\(String(format: "%.0f", entry.allocations.0)) | \(entry.counts.1) | "
                    + "\(String(format: "%.0f", entry.allocations.1)) | \(String(format: "%.2f", entry.perRequest)) | "
                    + "\(ratio(entry.perRequest, raw?.perRequest)) | \(String(format: "%.2f", entry.mallocsPerRequest)) | "
                    + "\(ratio(entry.mallocsPerRequest, raw?.mallocsPerRequest)) |")
        }
    }

    /// Issue 21's allocation goal, in the measure it was set in: calls to `malloc` per W1 request
    /// (59 for Courier and 23 for raw libcurl when it was filed), through a completion handler and
    /// awaited.
    func renderAllocationTarget(into out: inout [String]) {
        let courier = allocations.filter { $0.client == .courier }
        guard !courier.isEmpty else {
            out.append("| W1 calls to malloc/request ≤ 35 (issue 21) | not measured | — |")
            return
        }
        let worst = courier.map(\.mallocsPerRequest).max() ?? 0
        let measured = courier.map { "\($0.label) \(String(format: "%.2f", $0.mallocsPerRequest))" }
            .joined(separator: ", ")
        out.append("| W1 calls to malloc/request ≤ 35 (issue 21) | \(measured) | \(worst <= 35 ? "yes" : "**NO**") |")
    }
}
