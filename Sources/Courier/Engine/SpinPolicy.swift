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
/// while parked, so spinning resumes by itself. A disabled policy never spins
/// (`Session.Configuration.spinsBeforeParking`). Pure: no clock, no threads.
struct SpinPolicy: Equatable {
    /// The shortest window worth spinning (nanoseconds).
    static let minimumWindow: UInt64 = 10_000
    /// The longest any spin lasts (nanoseconds).
    static let maximumWindow: UInt64 = 200_000

    /// False when spinning is switched off: the window stays 0.
    let isEnabled: Bool
    /// How long the next spin may last, in nanoseconds; 0 means park at once.
    private(set) var window: UInt64

    init(enabled: Bool = true) {
        isEnabled = enabled
        window = enabled ? 50_000 : 0
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

    /// Checks `isDone` until it returns true or `window` nanoseconds have passed since `start`
    /// (a `DispatchTime` uptime); returns the nanoseconds from `start` to the moment it did, or
    /// nil if the window ran out.
    ///
    /// The spinning thread never gives up its CPU (no `sched_yield`): on a machine whose cores are
    /// all busy a yield hands the core to another process for a whole scheduler slice, milliseconds
    /// instead of microseconds (measured, docs/performance.md). Between checks it tells the CPU
    /// that it is spinning (`pause` on x86, `yield` on Arm).
    static func spin(window: UInt64, since start: UInt64, until isDone: () -> Bool) -> UInt64? {
        guard window > 0 else { return nil }
        while true {
            for _ in 0..<64 {
                if isDone() { return DispatchTime.now().uptimeNanoseconds &- start }
                courier_cpu_relax()
            }
            if DispatchTime.now().uptimeNanoseconds &- start >= window { return nil }
        }
    }
}
