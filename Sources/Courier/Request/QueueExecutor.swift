import Dispatch

/// Runs a task's jobs on a dispatch queue: the driver of a request that completion handlers
/// started runs on their queue, so the handlers are called there without another hop.
final class QueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(_ queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
