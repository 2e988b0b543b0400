import DBus

/// The tray's language items: the locale pick setting the recorder's `Locale` runs, with its errors, and the
/// locales on offer.
public struct LocaleControls: Sendable {
    /// Makes a locale the one recordings are transcribed in, as setting the recorder's `Locale` does.
    let pick: @Sendable (String) throws(BusError) -> Void
    /// The locales on offer, as of now.
    let options: @Sendable () -> LocaleOptions

    public init(pick: @escaping @Sendable (String) throws(BusError) -> Void, options: @escaping @Sendable () -> LocaleOptions) {
        self.pick = pick
        self.options = options
    }
}

/// The locales a panel offers to transcribe in.
public struct LocaleOptions: Sendable, Equatable {
    /// The locale recordings are transcribed in now.
    public let current: String
    /// Every locale a model exists for, on this machine or in the catalog.
    public let supported: [String]
    /// Those whose model is on this machine.
    public let installed: Set<String>

    public init(current: String, supported: [String], installed: Set<String>) {
        self.current = current
        self.supported = supported
        self.installed = installed
    }

    /// What a picker lists: the supported locales and the current one, sorted.
    var listed: [String] { Set(supported + [current]).sorted() }
}
