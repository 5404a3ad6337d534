// Instructions per request, counted (not timed): the budget `scripts/test.sh` holds, through
// scripts/lib/instruction-budget.sh, which runs this under callgrind.
//
//   InstructionBudget <base-url> <handler|async> <requests>
//
// Sends 100 requests as a warm-up, then `requests` sequential GETs of `<base-url>/bytes/1200`
// (the W1 shape) in the form given, and exits 0 if every one brought its 1,200 bytes. Run twice
// with different counts, the difference of the two totals divided by the difference of the
// counts is what one request costs, start-up and warm-up left out.
import BudgetWorkload
import Dispatch
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]), ["handler", "async"].contains(arguments[2]) else {
    print("usage: InstructionBudget <base-url> <handler|async> <requests>")
    exit(2)
}
let workload = BudgetWorkload(baseURL: arguments[1])
let awaited = arguments[2] == "async"
// No top-level `await`: that makes the main thread `dispatch_main`, which valgrind 3.19 cannot
// follow (it crashes). The main thread waits for a task instead.
let finished = DispatchSemaphore(value: 0)
Task.detached {
    for index in 0..<(100 + count) {
        let ok = awaited ? await workload.awaitedRequest() : workload.handlerRequest()
        if !ok {
            print("InstructionBudget: request \(index) failed")
            exit(1)
        }
    }
    finished.signal()
}
finished.wait()
