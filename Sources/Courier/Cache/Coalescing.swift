import CourierSync
import Foundation

/// Which requests in flight share a transfer: a pure state machine, no lock, no I/O.
///
/// A request ``join(_:_:)``s the group for its key: the first member starts the transfer, the
/// others attach to it. ``finish(_:)`` ends a group and names every member still in it (each gets
/// the result). ``leave(_:_:)`` takes one member out: the others keep the transfer, and the last
/// member leaving cancels it. A group that finished or was cancelled is gone: a request with the
/// same key afterwards starts a new group (a new transfer).
struct CoalescingTable<Key: Hashable & Sendable, Member: Hashable & Sendable>: Sendable {
    /// What the member that joined must do.
    enum JoinAction: Equatable, Sendable {
        /// Start the transfer: the member leads the group `group`.
        case start(group: UInt64)
        /// A transfer for the key is already running in `group`: wait for its result.
        case attach(group: UInt64)

        var group: UInt64 {
            switch self {
            case .start(let group), .attach(let group): return group
            }
        }
    }

    /// What a member leaving means for the shared transfer.
    enum LeaveAction: Equatable, Sendable {
        /// Others still wait for the transfer: only this member completes now (cancelled).
        case detach
        /// It was the last member: cancel the shared transfer.
        case cancelShared
        /// The member was not in the group (it finished already, or left before).
        case notMember
    }

    /// A running group: its key and members, the first apart (most groups have one member, and
    /// then no array is allocated).
    private struct Group: Sendable {
        let key: Key
        var first: Member?
        var others: [Member] = []

        var isEmpty: Bool { first == nil && others.isEmpty }
        var all: [Member] { (first.map { [$0] } ?? []) + others }
    }

    private var groupOfKey: [Key: UInt64] = [:]
    private var groups: [UInt64: Group] = [:]
    private var nextGroup: UInt64 = 1

    /// Adds `member` to the group running for `key`, or starts a group.
    mutating func join(_ key: Key, _ member: Member) -> JoinAction {
        if let group = groupOfKey[key] {
            groups[group]?.others.append(member)
            return .attach(group: group)
        }
        let group = nextGroup
        nextGroup += 1
        groupOfKey[key] = group
        groups[group] = Group(key: key, first: member)
        return .start(group: group)
    }

    /// Ends `group`: returns the members to deliver the result to, in the order they joined.
    mutating func finish(_ group: UInt64) -> [Member] {
        close(group)?.all ?? []
    }

    /// Ends `group` when it has exactly one member and returns it (the common case, without an
    /// array); nil when the group has several members or none.
    mutating func finishAlone(_ group: UInt64) -> Member?? {
        guard let running = groups[group] else { return .some(nil) }
        guard running.others.isEmpty else { return nil }
        _ = close(group)
        return .some(running.first)
    }

    /// Takes `member` out of `group`.
    mutating func leave(_ group: UInt64, _ member: Member) -> LeaveAction {
        guard var running = groups[group] else { return .notMember }
        if running.first == member {
            running.first = nil
        } else if let position = running.others.firstIndex(of: member) {
            running.others.remove(at: position)
        } else {
            return .notMember
        }
        if running.isEmpty {
            _ = close(group)
            return .cancelShared
        }
        groups[group] = running
        return .detach
    }

    /// How many groups are running (tests).
    var runningGroups: Int { groups.count }

    /// Whether `group` is running.
    func isRunning(_ group: UInt64) -> Bool { groups[group] != nil }

    private mutating func close(_ group: UInt64) -> Group? {
        guard let running = groups.removeValue(forKey: group) else { return nil }
        if groupOfKey[running.key] == group { groupOfKey[running.key] = nil }
        return running
    }
}

/// What makes two requests identical for coalescing: method, URL and every header field (names
/// compared without case, values and order as sent). Only `GET`s without a body have one; two
/// requests with different `Authorization` (or any other field) never share.
struct CoalescingKey: Hashable, Sendable {
    let url: URL
    let headers: HTTPHeaders
    /// What else must match: the session's `cancelAll()` epoch (a request made after
    /// `cancelAll()` must not join a transfer it cancels) and the time limits.
    let scope: Scope

    struct Scope: Hashable, Sendable {
        var epoch: UInt64 = 0
        var requestTimeout: TimeInterval?
        var connectTimeout: TimeInterval?
    }

    /// The key of a request, or nil when it must not be shared: not a `GET`, or it has a body.
    init?(method: HTTPMethod, url: URL, headers: HTTPHeaders, hasBody: Bool, scope: Scope = Scope()) {
        guard method == .get, !hasBody else { return nil }
        self.url = url
        self.headers = headers
        self.scope = scope
    }

    static func == (lhs: CoalescingKey, rhs: CoalescingKey) -> Bool {
        lhs.url == rhs.url && lhs.headers == rhs.headers && lhs.scope == rhs.scope
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        headers.hash(into: &hasher)
        hasher.combine(scope)
    }
}

/// The coalescing registry the driver calls: ``CoalescingTable`` behind a pthread lock, with each
/// member's delivery closure and each group's cancel handle. Deliveries run outside the lock.
///
/// Not generic on purpose: a generic class stores its closures at the most general abstraction,
/// and converting the transport's completion to it allocates on every request.
final class RequestCoalescer: Sendable {
    typealias Result = TransportResult
    /// Delivers the shared result to one member.
    typealias Deliver = @Sendable (TransportResult) -> Void

    /// One member's place: which group it is in, and who it is.
    struct Ticket: Hashable, Sendable {
        let group: UInt64
        let member: UInt64
    }

    /// A member's closure in a struct: a closure stored directly in a dictionary is converted to
    /// the dictionary's generic representation (an allocation) on the way in and again on the way out.
    private struct Delivery {
        let deliver: Deliver
    }

    private struct State {
        var table = CoalescingTable<CoalescingKey, UInt64>()
        var deliveries: [UInt64: Delivery] = [:]
        /// The shared transfer of each group, once started.
        var transfers: [UInt64: any TransportCancellable] = [:]
        /// What a member that leaves `group` gets (a cancelled result for its request).
        var leaving: [UInt64: Result] = [:]
        var nextMember: UInt64 = 1
    }

    private let state = Locked(State())

    init() {}

    /// Joins the transfer for `key`: `.start` means the caller must start it, hand its cancel
    /// handle to ``started(_:transfer:)`` and call ``finish(_:with:)`` when it ends; `.attach` means
    /// `deliver` will be called with the leader's result. The leader's own `deliver` is called too.
    /// `leaving` is what a member that leaves gets instead (made once per group).
    func join(
        _ key: CoalescingKey, leaving: @autoclosure () -> Result, deliver: @escaping Deliver
    ) -> (Ticket, CoalescingTable<CoalescingKey, UInt64>.JoinAction) {
        state.withLock { state in
            let member = state.nextMember
            state.nextMember += 1
            state.deliveries[member] = Delivery(deliver: deliver)
            let action = state.table.join(key, member)
            if case .start(let group) = action { state.leaving[group] = leaving() }
            return (Ticket(group: action.group, member: member), action)
        }
    }

    /// Records the cancel handle of `group`'s shared transfer; cancels it at once when every
    /// member left before it started.
    func started(_ group: UInt64, transfer: any TransportCancellable) {
        let running = state.withLock { state -> Bool in
            guard state.table.isRunning(group) else { return false }
            state.transfers[group] = transfer
            return true
        }
        if !running { transfer.cancel() }
    }

    /// Ends `group` with `result`: every member still in it gets `result`, once.
    func finish(_ group: UInt64, with result: Result) {
        // Deliveries leave the lock as structs: closures returned through it would be converted.
        let (alone, deliveries): (Delivery?, [Delivery]) = state.withLock { state in
            state.transfers[group] = nil
            state.leaving[group] = nil
            if case .some(let member) = state.table.finishAlone(group) {
                return (member.flatMap { state.deliveries.removeValue(forKey: $0) }, [])
            }
            return (nil, state.table.finish(group).compactMap { state.deliveries.removeValue(forKey: $0) })
        }
        alone?.deliver(result)
        for delivery in deliveries { delivery.deliver(result) }
    }

    /// Takes the member out (its caller cancelled): it gets the group's `leaving` result at once,
    /// unless it already got the shared one. When it was the last member, the shared transfer is
    /// cancelled. Returns what the table decided.
    @discardableResult
    func leave(_ ticket: Ticket) -> CoalescingTable<CoalescingKey, UInt64>.LeaveAction {
        let (action, deliver, result, transfer) = state.withLock {
            state -> (
                CoalescingTable<CoalescingKey, UInt64>.LeaveAction, Delivery?, Result?, (any TransportCancellable)?
            ) in
            let deliver = state.deliveries.removeValue(forKey: ticket.member)
            let result = state.leaving[ticket.group]
            let action = state.table.leave(ticket.group, ticket.member)
            guard action == .cancelShared else { return (action, deliver, result, nil) }
            state.leaving[ticket.group] = nil
            return (action, deliver, result, state.transfers.removeValue(forKey: ticket.group))
        }
        if action != .notMember, let deliver, let result { deliver.deliver(result) }
        transfer?.cancel()
        return action
    }

    /// How many shared transfers are running (tests).
    var runningTransfers: Int { state.withLock { $0.table.runningGroups } }

    /// How many members wait for a shared transfer (tests).
    var waitingMembers: Int { state.withLock { $0.deliveries.count } }
}
