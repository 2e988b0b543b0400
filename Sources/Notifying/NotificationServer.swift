import DBus

/// The calls a notification server answers: the seam between what Notula shows and the bus,
/// so that the notifier is tested against a double that records them.
public protocol NotificationServer: Sendable {
    /// What the server tells from now on. Subscribed before anything is asked, so that no change of owner is missed.
    func events() async throws(BusError) -> AsyncStream<NotificationServerEvent>
    /// The server's capabilities (`actions`, `body-markup`, …).
    /// - Throws: `ServiceUnknown` (or another error) when no server answers.
    func capabilities() async throws(BusError) -> Set<String>
    /// Shows `notification`, in place of `id` when it is not 0; returns its id.
    func notify(_ notification: DesktopNotification, replacing id: UInt32) async throws(BusError) -> UInt32
    func close(_ id: UInt32) async throws(BusError)
}

/// What a notification server tells its clients.
public enum NotificationServerEvent: Sendable, Equatable {
    /// A server took the name: a first one, or one restarted.
    case appeared
    /// The server left the bus; the notifications it showed are gone with it.
    case vanished
    /// A button (or the notification itself, `default`) was pressed. KDE sends these to every client: check the id.
    case actionInvoked(id: UInt32, key: String)
    /// Expired (1), dismissed by the user (2), closed by a call (3), undefined (4).
    case closed(id: UInt32, reason: UInt32)
}
