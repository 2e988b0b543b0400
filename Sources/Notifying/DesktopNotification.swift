import DBus

/// One notification as a server is asked to show it: the arguments of `Notify` but the ids.
public struct DesktopNotification: Sendable, Equatable {
    public var summary: String
    public var body: String
    public var icon: String
    /// The buttons (and `default`, the click on the notification itself), in the order shown.
    public var actions: [NotificationAction]
    public var hints: NotificationHints
    /// Milliseconds; 0 never expires, −1 the server's default.
    public var expireTimeout: Int32

    public init(
        summary: String, body: String, icon: String, actions: [NotificationAction] = [], hints: NotificationHints, expireTimeout: Int32
    ) {
        self.summary = summary
        self.body = body
        self.icon = icon
        self.actions = actions
        self.hints = hints
        self.expireTimeout = expireTimeout
    }

    /// `actions` as the spec flattens them: key, label, key, label, …
    var flatActions: [String] { actions.flatMap { [$0.key, $0.label] } }
}

/// A button: the key `ActionInvoked` names, and the label the user reads.
public struct NotificationAction: Sendable, Equatable {
    public let key: String
    public let label: String

    public init(_ key: String, _ label: String) {
        self.key = key
        self.label = label
    }
}

/// How insistent a notification is; the spec's byte values.
public enum Urgency: UInt8, Sendable {
    case low = 0, normal = 1, critical = 2
}

/// The hints Notula sends: the spec's names, typed.
public struct NotificationHints: Sendable, Equatable {
    public var urgency: Urgency
    public var category: String?
    public var desktopEntry: String
    /// Kept after a button press (GNOME removes it otherwise).
    public var resident: Bool
    /// Not kept in the server's history.
    public var transient: Bool
    public var suppressSound: Bool

    public init(
        urgency: Urgency, category: String? = nil, desktopEntry: String = NotificationHints.notulaEntry, resident: Bool = false,
        transient: Bool = false, suppressSound: Bool = false
    ) {
        self.urgency = urgency
        self.category = category
        self.desktopEntry = desktopEntry
        self.resident = resident
        self.transient = transient
        self.suppressSound = suppressSound
    }

    /// The desktop file's name without `.desktop`, which servers use to find the icon and the app's settings.
    public static let notulaEntry = "org.notula.Notula"

    /// The `a{sv}` of `Notify`; flags that are false are left out, as servers take absence for false.
    var dictionary: [String: Variant] {
        var hints: [String: Variant] = ["urgency": Variant(urgency.rawValue), "desktop-entry": Variant(desktopEntry)]
        if let category { hints["category"] = Variant(category) }
        if resident { hints["resident"] = Variant(true) }
        if transient { hints["transient"] = Variant(true) }
        if suppressSound { hints["suppress-sound"] = Variant(true) }
        return hints
    }
}
