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

    private var groupOfKey: [Key: UInt64] = [:]
    private var members: [UInt64: [Member]] = [:]
    private var keyOfGroup: [UInt64: Key] = [:]
    private var nextGroup: UInt64 = 1

    /// Adds `member` to the group running for `key`, or starts a group.
    mutating func join(_ key: Key, _ member: Member) -> JoinAction {
        if let group = groupOfKey[key] {
            members[group, default: []].append(member)
            return .attach(group: group)
        }
        let group = nextGroup
        nextGroup += 1
        groupOfKey[key] = group
        keyOfGroup[group] = key
        members[group] = [member]
        return .start(group: group)
    }

    /// Ends `group`: returns the members to deliver the result to, in the order they joined.
    mutating func finish(_ group: UInt64) -> [Member] {
        close(group)
    }

    /// Takes `member` out of `group`.
    mutating func leave(_ group: UInt64, _ member: Member) -> LeaveAction {
        guard var list = members[group], let position = list.firstIndex(of: member) else { return .notMember }
        list.remove(at: position)
        if list.isEmpty {
            _ = close(group)
            return .cancelShared
        }
        members[group] = list
        return .detach
    }

    /// How many groups are running (tests).
    var runningGroups: Int { members.count }

    private mutating func close(_ group: UInt64) -> [Member] {
        if let key = keyOfGroup.removeValue(forKey: group), groupOfKey[key] == group { groupOfKey[key] = nil }
        return members.removeValue(forKey: group) ?? []
    }
}

/// What makes two requests identical for coalescing: method, URL (with its fragment dropped)
/// and every header field, names lowercased, values and order as sent. Only `GET`s without a body
/// have one; two requests with different `Authorization` (or any other field) never share.
struct CoalescingKey: Hashable, Sendable {
    let method: String
    let url: String
    let headers: [CacheHeader]
    /// What else must match: the session's `cancelAll()` epoch (a request made after
    /// `cancelAll()` must not join a transfer it cancels) and the time limits.
    struct Scope: Hashable, Sendable {
        var epoch: UInt64 = 0
        var requestTimeout: TimeInterval?
        var connectTimeout: TimeInterval?
    }

    let scope: Scope

    /// The key of a request, or nil when it must not be shared: not a `GET`, or it has a body.
    init?(method: String, url: URL, headers: [CacheHeader], hasBody: Bool, scope: Scope = Scope()) {
        guard method.uppercased() == "GET", !hasBody else { return nil }
        self.method = "GET"
        self.url = CacheRules.key(for: url)
        self.headers = headers.map { CacheHeader($0.name.lowercased(), $0.value) }
        self.scope = scope
    }
}

/// The coalescing registry the driver calls: ``CoalescingTable`` behind a pthread lock, with each
/// member's delivery closure. Deliveries run outside the lock.
final class RequestCoalescer<Result: Sendable>: Sendable {
    /// Delivers the shared result to one member.
    typealias Deliver = @Sendable (Result) -> Void

    /// One member's place: which group it is in, and who it is.
    struct Ticket: Hashable, Sendable {
        let group: UInt64
        let member: UInt64
    }

    private struct State {
        var table = CoalescingTable<CoalescingKey, UInt64>()
        var deliveries: [UInt64: Deliver] = [:]
        var nextMember: UInt64 = 1
    }

    private let state = Locked(State())

    init() {}

    /// Joins the transfer for `key`: `.start` means the caller must start it and call
    /// ``finish(_:with:)`` with its group when it ends; `.attach` means `deliver` will be called
    /// with the leader's result. The leader's own `deliver` is called too.
    func join(
        _ key: CoalescingKey, deliver: @escaping Deliver
    ) -> (Ticket, CoalescingTable<CoalescingKey, UInt64>.JoinAction) {
        state.withLock { state in
            let member = state.nextMember
            state.nextMember += 1
            state.deliveries[member] = deliver
            let action = state.table.join(key, member)
            return (Ticket(group: action.group, member: member), action)
        }
    }

    /// Ends `group` with `result`: every member still in it gets `result`, once.
    func finish(_ group: UInt64, with result: Result) {
        let deliveries: [Deliver] = state.withLock { state in
            state.table.finish(group).compactMap { state.deliveries.removeValue(forKey: $0) }
        }
        for deliver in deliveries { deliver(result) }
    }

    /// Takes the member out (its caller cancelled): its `deliver` is not called. Returns
    /// `.cancelShared` when it was the last member: the caller then cancels the transfer.
    func leave(_ ticket: Ticket) -> CoalescingTable<CoalescingKey, UInt64>.LeaveAction {
        state.withLock { state in
            state.deliveries[ticket.member] = nil
            return state.table.leave(ticket.group, ticket.member)
        }
    }

    /// How many shared transfers are running (tests).
    var runningTransfers: Int { state.withLock { $0.table.runningGroups } }

    /// How many members wait for a shared transfer (tests).
    var waitingMembers: Int { state.withLock { $0.deliveries.count } }
}
