import CCurlShim
import Dispatch

/// Spin-then-park: how long a thread that waits for an event (the engine loop for its next
/// command, an awaiting task for its outcome) watches for it before it parks. An event that comes
/// within the window costs no system call and no thread wake-up.
///
/// The window follows what was observed: after each wait, the time the event actually took (caught
/// while spinning or not) sets the window to twice that time, within ``minimumWindow`` and
/// ``maximumWindow``. Events that take longer than ``maximumWindow`` (or never come) halve it, and
/// below ``minimumWindow`` spinning stops until a fast event is observed again; observations go on
/// while parked, so spinning resumes by itself.
///
/// A spin that finds its thread was descheduled in the middle (``spin(window:since:until:)``
/// returns ``SpinResult/preempted``) means the cores are all busy, where spinning takes CPU from
/// the thread being waited for: the next waits park at once, one after the first preemption and
/// twice as many after each further one (up to ``maximumBackoff``); each spin that succeeds halves
/// that number again. A disabled policy never spins (`Session.Configuration.spinsBeforeParking`).
/// Pure: no clock, no threads.
struct SpinPolicy: Equatable {
    /// The shortest window worth spinning (nanoseconds).
    static let minimumWindow: UInt64 = 10_000
    /// The longest any spin lasts (nanoseconds).
    static let maximumWindow: UInt64 = 200_000
    /// The most waits that park at once after preemptions.
    static let maximumBackoff = 1024
    /// A gap this long (nanoseconds) between two of a spin's clock readings, which are a few
    /// microseconds apart while it runs, means the thread was descheduled.
    static let preemptionGap: UInt64 = 50_000

    /// What a spin ended with.
    enum SpinResult: Equatable {
        /// The condition held this many nanoseconds after the wait began.
        case arrived(UInt64)
        /// The window ran out first.
        case expired
        /// The thread was descheduled while spinning: the cores are busy.
        case preempted
    }

    /// False when spinning is switched off: the window stays 0.
    let isEnabled: Bool
    /// How long a spin may last when one is allowed, in nanoseconds; 0 means park at once.
    private(set) var window: UInt64
    /// Waits still to park at once after a preemption.
    private(set) var parksLeft = 0
    /// How many waits park at once after the next preemption.
    private(set) var backoff = 1

    init(enabled: Bool = true) {
        isEnabled = enabled
        window = enabled ? 50_000 : 0
    }

    /// The window for the wait that starts now (0: park at once); counts down a backoff.
    mutating func nextWindow() -> UInt64 {
        guard parksLeft == 0 else {
            parksLeft -= 1
            return 0
        }
        return window
    }

    /// Records that the awaited event came `wait` nanoseconds after the wait began, or that it did
    /// not come in a useful time (nil).
    mutating func observe(wait: UInt64?) {
        guard isEnabled else { return }
        if let wait, wait <= Self.maximumWindow {
            window = min(Self.maximumWindow, max(Self.minimumWindow, wait * 2))
        } else {
            let halved = window / 2
            window = halved < Self.minimumWindow ? 0 : halved
        }
    }

    /// Records what a spin ended with (the wait itself is recorded by ``observe(wait:)``).
    mutating func observe(_ result: SpinResult) {
        guard isEnabled else { return }
        switch result {
        case .arrived:
            backoff = max(1, backoff / 2)
        case .expired:
            break
        case .preempted:
            parksLeft = backoff
            backoff = min(Self.maximumBackoff, backoff * 2)
        }
    }

    /// Checks `isDone` until it returns true, `window` nanoseconds have passed since `start` (a
    /// `DispatchTime` uptime), or the thread turns out to have been descheduled meanwhile.
    ///
    /// The spinning thread never gives up its CPU (no `sched_yield`): on a machine whose cores are
    /// all busy a yield hands the core to another process for a whole scheduler slice, milliseconds
    /// instead of microseconds (measured, Benchmarks/EXPERIMENTS.md). Between checks it tells the CPU
    /// that it is spinning (`pause` on x86, `yield` on Arm).
    static func spin(window: UInt64, since start: UInt64, until isDone: () -> Bool) -> SpinResult {
        guard window > 0 else { return .expired }
        var last = start
        while true {
            for _ in 0..<64 {
                if isDone() { return .arrived(DispatchTime.now().uptimeNanoseconds &- start) }
                courier_cpu_relax()
            }
            let now = DispatchTime.now().uptimeNanoseconds
            if now &- last >= preemptionGap { return .preempted }
            if now &- start >= window { return .expired }
            last = now
        }
    }
}
