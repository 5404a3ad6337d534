import Foundation

/// The engine model's part of the report: raw libcurl driven through one loop thread the way
/// Courier's engine drives it (client `raw-engine`, Benchmarks/RawCurlBaseline/engine_model.c),
/// set beside raw libcurl and Courier for the workloads it runs (W1, W2, W5).
extension Report {
    static let engineModelWorkloads: [Workload] = [.w1, .w2, .w5]

    /// The median over rounds of `value` per run, formatted by `format`; "—" without runs.
    func medianCell(_ client: Client, _ workload: Workload, _ format: String, _ value: (Run) -> Double?) -> String {
        Self.median(select(client, workload).compactMap(value)).map { String(format: format, $0) } ?? "—"
    }

    /// `numerator`'s median rate over `denominator`'s for `workload`, or "—".
    func rateRatio(_ numerator: Client, over denominator: Client, _ workload: Workload) -> String {
        guard let top = medianRate(numerator, workload), let bottom = medianRate(denominator, workload) else {
            return "—"
        }
        return String(format: "%.2f×", top / bottom)
    }

    /// The table after the main one; nothing when no run of the engine model is in the results.
    func renderEngineModel(into out: inout [String]) {
        guard runs.contains(where: { $0.client == .rawEngine }) else { return }
        out.append("")
        out.append("The engine model: raw libcurl through one loop thread (the design's floor without Swift).")
        out.append("")
        out.append(
            "| workload | engine model req/s | raw libcurl req/s | engine ÷ raw | Courier ÷ engine | "
                + "CPU µs engine · raw | voluntary cs engine · raw |")
        out.append("|---|---|---|---|---|---|---|")
        for (workload, label) in Self.labels where Self.engineModelWorkloads.contains(workload) {
            guard runs.contains(where: { $0.workload == workload }) else { continue }
            let rawRate = medianRate(.rawCurl, workload).map(Self.number) ?? "—"
            let cpu = [Client.rawEngine, .rawCurl].map { client in
                Self.median(select(client, workload).map(\.cpuMicrosecondsPerRequest)).map(Self.number) ?? "—"
            }
            let switches = [Client.rawEngine, .rawCurl].map { client in
                medianCell(client, workload, "%.2f") { run in run.perRequest { Double($0.voluntarySwitches) } }
            }
            out.append(
                "| \(label) | \(cell(.rawEngine, workload)) | \(rawRate) | "
                    + "\(rateRatio(.rawEngine, over: .rawCurl, workload)) | "
                    + "\(rateRatio(.courier, over: .rawEngine, workload)) | "
                    + "\(cpu.joined(separator: " · ")) | \(switches.joined(separator: " · ")) |")
        }
    }
}
