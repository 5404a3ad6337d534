// Allocations per request, counted (not timed): the budget `scripts/test.sh` holds.
//
//   AllocationBudget <base-url> [requests] [handler-budget async-budget [malloc-budget]]
//
// Sends `requests` sequential GETs of `<base-url>/bytes/1200` (after a warm-up), the W1 shape:
// once with a completion handler and once awaited, and counts every heap allocation the process
// makes meanwhile (Courier and libcurl; the server is another process). Two counts per form:
// every allocation (malloc, calloc, realloc of NULL, aligned), and the calls to `malloc` as
// callgrind counts them (a realloc of NULL included, which glibc serves through malloc): the count
// issue 21's figures were given in. Prints one line per form; with budgets, exits 1 when a form
// passes one of them (the malloc budget holds both forms).
import BudgetWorkload
import Foundation
import MallocCounter

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: AllocationBudget <base-url> [requests] [handler-budget async-budget]")
    exit(2)
}
let workload = BudgetWorkload(baseURL: arguments[1])
let count = arguments.count > 2 ? Int(arguments[2]) ?? 1000 : 1000
let handlerBudget = arguments.count > 3 ? Double(arguments[3]) : nil
let asyncBudget = arguments.count > 4 ? Double(arguments[4]) : handlerBudget
let mallocBudget = arguments.count > 5 ? Double(arguments[5]) : nil

func measure(_ name: String, budget: Double?, _ one: () async -> Bool) async -> Bool {
    for _ in 0..<100 where !(await one()) {
        print("\(name): a warm-up request failed")
        return false
    }
    let before = (all: courier_allocation_count(), malloc: courier_malloc_count())
    for _ in 0..<count where !(await one()) {
        print("\(name): a request failed")
        return false
    }
    let perRequest = Double(courier_allocation_count() - before.all) / Double(count)
    let mallocPerRequest = Double(courier_malloc_count() - before.malloc) / Double(count)
    func verdict(_ value: Double, _ budget: Double?) -> String {
        guard let budget else { return "" }
        return value <= budget ? " (within the budget of \(budget))" : " (OVER the budget of \(budget))"
    }
    print(
        "allocations per request, \(name): \(String(format: "%.3f", perRequest))\(verdict(perRequest, budget));"
            + " calls to malloc: \(String(format: "%.3f", mallocPerRequest))\(verdict(mallocPerRequest, mallocBudget))"
    )
    return (budget.map { perRequest <= $0 } ?? true) && (mallocBudget.map { mallocPerRequest <= $0 } ?? true)
}

// Called through a function of this program: awaited straight from the closure below, the same
// request counted one allocation more (44.98 against 44.00 per request), the harness's own.
func awaitedGet() async -> Bool { await workload.awaitedRequest() }

let handlerOK = await measure("completion handler", budget: handlerBudget) { workload.handlerRequest() }
let awaitedOK = await measure("async/await", budget: asyncBudget) { await awaitedGet() }
exit(handlerOK && awaitedOK ? 0 : 1)
