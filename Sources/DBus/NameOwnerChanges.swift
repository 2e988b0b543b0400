import CDBus

/// One `signals(matching:)` subscription: its rules, and the owners of the well-known senders they name.
struct Subscription {
    let rules: [MatchRule]
    let continuation: AsyncStream<Message>.Continuation
    /// The owner of each followed well-known name, by name.
    var owners: [String: FollowedOwner] = [:]

    /// The well-known names whose owners alone may send this subscription's signals.
    var followedNames: [BusName] { Array(Set(rules.compactMap(\.followedSender))) }

    /// The daemon's rules that keep `owners` current.
    var ownerRules: [MatchRule] { followedNames.map(MatchRule.ownerChanges(of:)) }

    func wants(_ signal: MessageHeader, firstString: () -> String?) -> Bool {
        rules.contains { rule in
            rule.matches(signal, owner: rule.followedSender.flatMap { owners[$0.rawValue]?.owner }, firstString: firstString)
        }
    }
}

/// What is known of a followed name's owner.
enum FollowedOwner {
    /// `GetNameOwner` is on its way: no signal is believed yet.
    case asking
    /// The owner's unique name, nil when the name has none.
    case known(String?)

    var owner: String? { if case .known(let owner) = self { owner } else { nil } }
}

extension Bus {
    /// Starts following the owners of the well-known senders the subscription `token` names: each
    /// name's changes are subscribed to before its owner is asked, so that no change falls between.
    func followOwners(for token: Int) async throws(BusError) {
        guard let subscription = subscriptions[token] else { return }
        for name in subscription.followedNames {
            subscriptions[token]?.owners[name.rawValue] = .asking
            _ = try await callDaemon("AddMatch", [.string(MatchRule.ownerChanges(of: name).ruleString)])
        }
        for name in subscription.followedNames {
            let owner = try await owner(of: name)
            // A change that arrived while asking is at least as new as the answer.
            if case .asking? = subscriptions[token]?.owners[name.rawValue] { subscriptions[token]?.owners[name.rawValue] = .known(owner) }
        }
    }

    /// Keeps the followed owners current from the daemon's `NameOwnerChanged`, as it is dispatched: a
    /// signal the new owner sends right after is believed, one the old owner sends is not.
    func noteOwnerChange(_ signal: MessageHeader, _ raw: OpaquePointer) {
        guard signal.sender == BusName.daemon.rawValue, signal.interface == InterfaceName.daemon.rawValue,
            signal.member == "NameOwnerChanged", signal.signature == "sss", subscriptions.values.contains(where: { !$0.owners.isEmpty })
        else { return }
        var arguments = ArgumentReader(raw)
        guard case .string(let name)? = arguments.next(), arguments.next() != nil, case .string(let newOwner)? = arguments.next() else {
            return
        }
        for token in subscriptions.keys where subscriptions[token]?.owners[name] != nil {
            subscriptions[token]?.owners[name] = .known(newOwner.isEmpty ? nil : newOwner)
        }
    }

    /// Whether `name` has an owner: first as of now, then at every change, for a peer that comes and goes (a
    /// panel's tray watcher, a notification server). Subscribed before the owner is asked, so no change is missed.
    /// The corresponding bus signal is `org.freedesktop.DBus.NameOwnerChanged`.
    public func ownerPresence(of name: BusName) async throws(BusError) -> AsyncStream<Bool> {
        let changes = try await signals(matching: .ownerChanges(of: name))
        let owned = try await owner(of: name) != nil
        return AsyncStream { continuation in
            continuation.yield(owned)
            let reading = Task {
                for await change in changes {
                    guard let newOwner = try? change.argument(2, as: String.self) else { continue }
                    continuation.yield(!newOwner.isEmpty)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in reading.cancel() }
        }
    }
}
