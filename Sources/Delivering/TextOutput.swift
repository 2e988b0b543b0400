/// Where a processed memo's text goes besides the library: the recorder's `Output`, and `ProcessTo`'s argument.
public enum TextOutput: String, Sendable, CaseIterable {
    /// Nowhere else.
    case memo
    /// The clipboard.
    case clipboard
    /// Typed into the window that has the keyboard focus when the text is ready.
    case type

    /// The values a caller may give, for an `InvalidArgs` that lists them.
    public static let spelled = allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
}

/// How `TextOutput.type` types: the recorder's `Typing`.
public enum TypingChoice: Sendable, Equatable {
    /// Chosen by the session: the portal on GNOME and KDE, the virtual keyboard on other Wayland desktops, XTEST on X11;
    /// pasting instead for a long text, or where those refuse, outside GNOME and KDE.
    case automatic
    /// The one way the user forced, for a desktop detected wrongly.
    case forced(DeliveryMethod)

    /// The ways a user may force.
    public static let forceable: [DeliveryMethod] = [.portal, .virtualKeyboard, .xtest, .paste]

    /// From the property's value: `auto` or a forceable method; nil for anything else.
    public init?(_ value: String) {
        if value == "auto" {
            self = .automatic
        } else if let method = DeliveryMethod(rawValue: value), Self.forceable.contains(method) {
            self = .forced(method)
        } else {
            return nil
        }
    }

    public var value: String {
        switch self {
        case .automatic: "auto"
        case .forced(let method): method.rawValue
        }
    }

    /// The values a caller may give, for an `InvalidArgs` that lists them.
    public static let spelled = (["auto"] + forceable.map(\.rawValue)).map { "\"\($0)\"" }.joined(separator: ", ")
}
