extension Bus {
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
