import Foundation

/// The engine model's part of the report: raw libcurl driven through one loop thread the way
/// Courier's engine drives it (client `raw-engine`, Benchmarks/EngineModelLoop with a C caller),
/// set beside raw libcurl and Courier for the workloads it runs (W1, W2, W5); and W2 layer by
/// layer, from raw libcurl up to Courier's whole request.
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

    /// W2 from raw libcurl up, one layer at a time: raw libcurl sending Courier's request head
    /// (`w2head`), the engine model's loop with Swift tasks as callers (`async-engine`), the same
    /// with Courier's libcurl options and request head (`async-engine` `w2head`: the floor for
    /// Courier as configured by default), Courier's transport awaited directly (`w2transport`), and
    /// Courier's whole request. Nothing when neither `async-engine` nor `w2transport` ran.
    func renderW2Layers(into out: inout [String]) {
        let layers: [(Client, Workload, String)] = [
            (.rawCurl, .w2, "raw libcurl, one thread"),
            (.rawCurl, .w2head, "raw libcurl, one thread, sending Courier's request head (`w2head`)"),
            (.asyncEngine, .w2, "async engine model: the engine model's loop, 64 Swift tasks awaiting it"),
            (
                .asyncEngine, .w2head,
                "async engine model with Courier's libcurl options and request head (the floor for Courier as configured)"
            ),
            (.courier, .w2transport, "Courier's transport awaited directly (the engine, no `DataRequest`)"),
            (.courier, .w2, "Courier: `session.request(router).validate().data()`")
        ]
        guard !select(.asyncEngine, .w2).isEmpty || !select(.courier, .w2transport).isEmpty else { return }
        let rawRate = medianRate(.rawCurl, .w2)
        let rawCPU = Self.median(select(.rawCurl, .w2).map(\.cpuMicrosecondsPerRequest))
        out.append("")
        out.append(
            "W2 layer by layer: medians over rounds, with each layer's ratio to raw libcurl. Loop thread: "
                + "the CPU of Courier's engine thread (or the model's loop thread) alone; the rest is the "
                + "callers' (the cooperative pool).")
        out.append("")
        out.append("| layer | req/s | ÷ raw libcurl | CPU µs per request | CPU ÷ raw | loop thread µs | the rest µs |")
        out.append("|---|---|---|---|---|---|---|")
        for (client, workload, label) in layers where !select(client, workload).isEmpty {
            let rate = medianRate(client, workload)
            let cpu = Self.median(select(client, workload).map(\.cpuMicrosecondsPerRequest))
            let rateRatio = rate.flatMap { rate in rawRate.map { String(format: "%.2f×", rate / $0) } }
            let cpuRatio = cpu.flatMap { cpu in rawCPU.map { String(format: "%.2f×", cpu / $0) } }
            let loop = medianCell(client, workload, "%.1f") { $0.loopThreadMicrosecondsPerRequest }
            let rest = medianCell(client, workload, "%.1f") { run in
                run.loopThreadMicrosecondsPerRequest.map { run.cpuMicrosecondsPerRequest - $0 }
            }
            out.append(
                "| \(label) | \(rate.map(Self.number) ?? "—") | \(rateRatio ?? "—") | "
                    + "\(cpu.map(Self.number) ?? "—") | \(cpuRatio ?? "—") | \(loop) | \(rest) |")
        }
        if let same = againstSameHead {
            out.append("")
            out.append(
                "Courier against raw libcurl sending the same request head: "
                    + String(format: "%.2f× the rate at %.2f× the CPU.", same.rate, same.cpu)
                    + " libcurl 7.88 formats a request head a byte at a time, so the head's size is part of the "
                    + "difference from raw libcurl's own, smaller request.")
        }
        if let rawCPU, let floorCPU = Self.median(select(.asyncEngine, .w2head).map(\.cpuMicrosecondsPerRequest)),
            let courierCPU = Self.median(select(.courier, .w2).map(\.cpuMicrosecondsPerRequest))
        {
            let goal = 1.5 * rawCPU
            let left =
                goal >= floorCPU
                ? String(format: "leaves %.1f µs a request for Courier's own code", goal - floorCPU)
                : String(format: "is %.1f µs a request below the floor itself", floorCPU - goal)
            out.append("")
            out.append(
                String(
                    format: "The floor for Courier as configured (the async engine model with Courier's libcurl "
                        + "options and request head) takes %.2f× raw libcurl's CPU per request (%.1f µs). Issue 22's "
                        + "goal of 1.5× (%.1f µs) ", floorCPU / rawCPU, floorCPU, goal)
                    + left
                    + String(format: "; Courier took %.1f µs a request above the floor.", courierCPU - floorCPU))
        }
    }

    /// Issue 22's two W2 goals measured against raw libcurl sending Courier's request head
    /// (`w2head`): rows of the targets table beside the goals themselves, which compare with raw
    /// libcurl's own smaller request, not instead of them. Nothing when `w2head` did not run.
    func renderSameHeadTargets(into out: inout [String]) {
        guard let same = againstSameHead else { return }
        out.append(
            "| W2 req/s ≥ 0.8× raw curl multi sending Courier's request head (w2head) | "
                + "\(String(format: "%.2f×", same.rate)) | \(same.rate >= 0.8 ? "yes" : "**NO**") |")
        out.append(
            "| W2 CPU/request ≤ 1.5× raw curl multi sending Courier's request head (w2head) | "
                + "\(String(format: "%.2f× (%.1f vs %.1f µs)", same.cpu, same.courierCPU, same.headCPU)) | "
                + "\(same.cpu <= 1.5 ? "yes" : "**NO**") |")
    }

    /// Courier's W2 against raw libcurl sending the same request head (`w2head`): the ratios of
    /// the median rates and of the median CPU per request, with the two CPU medians (µs); nil
    /// unless both ran.
    private var againstSameHead: (rate: Double, cpu: Double, courierCPU: Double, headCPU: Double)? {
        guard let courierRate = medianRate(.courier, .w2), let headRate = medianRate(.rawCurl, .w2head),
            let courierCPU = Self.median(select(.courier, .w2).map(\.cpuMicrosecondsPerRequest)),
            let headCPU = Self.median(select(.rawCurl, .w2head).map(\.cpuMicrosecondsPerRequest))
        else { return nil }
        return (courierRate / headRate, courierCPU / headCPU, courierCPU, headCPU)
    }
}
