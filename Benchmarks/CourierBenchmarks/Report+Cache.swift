import Foundation

extension Report {
    /// The cache and coalescing rows (CacheWorkloads.swift): a hit against W1's network round trip,
    /// 64 identical GETs coalesced against 64 transfers.
    func renderCache(into out: inout [String]) {
        let rows: [(Workload, String, Workload?, String)] = [
            (.cacheHit, "GET 1.2 KB answered from the memory cache", .w1, "× W1 (network round trip)"),
            (.coalesced, "64 identical GETs at once, coalesced (one transfer)", .uncoalesced, "× one transfer each"),
            (.uncoalesced, "64 identical GETs at once, one transfer each", nil, "")
        ]
        let measured = rows.filter { !select(.courier, $0.0).isEmpty }
        guard !measured.isEmpty else { return }
        out.append("")
        out.append("Cache and coalescing (Courier; requests/s, CPU µs per request):")
        out.append("")
        out.append("| workload | Courier | CPU µs/request | compared |")
        out.append("|---|---|---|---|")
        for (workload, label, base, unit) in measured {
            let counts = Set(select(.courier, workload).map(\.count)).sorted().map(String.init)
            let cpu = Self.median(select(.courier, workload).map(\.cpuMicrosecondsPerRequest)).map(Self.number) ?? "—"
            var compared = "—"
            if let base, let rate = medianRate(.courier, workload), let baseRate = medianRate(.courier, base) {
                compared = String(format: "%.1f", rate / baseRate) + unit
            }
            out.append(
                "| \(label) (n=\(counts.joined(separator: ","))) | \(cell(.courier, workload)) | \(cpu) | \(compared) |"
            )
        }
    }
}
