import DBus
import Recording

/// What a panel — the tray item and its menu, the media player — sends back into the service: the same
/// transitions and locale pick the recorder object's methods and `Locale` run, with their errors.
public struct PanelControls: Sendable {
    /// Runs the transition of that name, as its bus method does; a refusal is that method's error.
    let perform: @Sendable (RecordingAction) throws(BusError) -> Void
    /// Makes a locale the one recordings are transcribed in, as setting the recorder's `Locale` does.
    let pickLocale: @Sendable (String) throws(BusError) -> Void
    /// The locales on offer, as of now.
    let locales: @Sendable () -> LocaleOptions

    public init(
        perform: @escaping @Sendable (RecordingAction) throws(BusError) -> Void,
        pickLocale: @escaping @Sendable (String) throws(BusError) -> Void, locales: @escaping @Sendable () -> LocaleOptions
    ) {
        self.perform = perform
        self.pickLocale = pickLocale
        self.locales = locales
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
