import DBus
import NotulaContract
import Recording

#if canImport(Glibc)
    import Glibc
#endif

/// The recorder as a StatusNotifierItem with a `com.canonical.dbusmenu` menu: the tray icon of KDE Plasma,
/// XFCE, waybar and GNOME's AppIndicator extension. It registers with whichever StatusNotifierWatcher the
/// session has, and again with each one that appears; its clicks run the recorder's transitions.
///
/// Shares the bus's executor (as the recorder does): a transition reports to it synchronously, and the bus
/// reads its properties synchronously.
public actor TrayItem {
    static let itemPath = ObjectPath("/StatusNotifierItem")!
    static let menuPath = ObjectPath("/StatusNotifierItem/Menu")!
    static let watcherName: BusName = "org.kde.StatusNotifierWatcher"
    static let watcherPath = ObjectPath("/StatusNotifierWatcher")!

    let bus: Bus
    public nonisolated var unownedExecutor: UnownedSerialExecutor { bus.unownedExecutor }
    let texts: NotificationTexts
    /// What clicks run.
    private let controls: any RecorderControls
    /// What the language items pick from.
    private let locales: LocaleControls
    private let log: @Sendable (String) -> Void
    /// The name the specification asks an item to own: the watcher and hosts find the item through it.
    let itemName = BusName("org.kde.StatusNotifierItem-\(getpid())-1")!

    private(set) var state: RecordingState = .idle
    private var elapsed: Duration = .zero
    /// The programs that also hear the recordings (`OpenAudio`, `WatchText`).
    private var heardBy: [String] = []
    private(set) var shown: TrayPresentation
    /// The menu as the hosts last had it, and its revision (`LayoutUpdated` counts up).
    private(set) var menu: TrayMenu
    private(set) var revision: UInt32 = 1
    /// A panel's watcher is on the bus: without one there is no host to tell of changes, and one that
    /// comes reads the item afresh when it registers.
    private var watched = false

    public init(
        bus: Bus, texts: NotificationTexts, controls: any RecorderControls, locales: LocaleControls,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.bus = bus
        self.texts = texts
        self.controls = controls
        self.locales = locales
        self.log = log
        shown = TrayPresentation(state: .idle, elapsed: .zero, texts: texts)
        menu = TrayMenu(state: .idle, locales: LocaleOptions(current: "", supported: [], installed: []), texts: texts)
    }

    /// Exports the item and its menu, owns the item's name, and registers with the watcher now and whenever one appears.
    public func start() async {
        menu = TrayMenu(state: state, locales: locales.options(), texts: texts)
        await bus.export(Self.itemPath, interfaces: [StatusNotifierItemInterface.make(self)])
        await bus.export(Self.menuPath, interfaces: [DBusMenuInterface.make(self)])
        do throws(BusError) {
            _ = try await bus.requestName(itemName)
            let presence = try await bus.ownerPresence(of: Self.watcherName)
            Task {
                for await present in presence {
                    watched = present
                    if present { await register() }
                }
            }
        } catch {
            log("No tray icon: \(error.message)")
        }
    }

    private func register() async {
        do throws(BusError) {
            _ = try await bus.call(
                MethodCall(
                    destination: Self.watcherName, path: Self.watcherPath, interface: "org.kde.StatusNotifierWatcher",
                    member: "RegisterStatusNotifierItem", arguments: [.string(itemName.rawValue)]),
                timeout: .seconds(5))
            log("The tray icon is registered with the panel's \(Self.watcherName)")
        } catch {
            log("The panel's \(Self.watcherName) refused the tray icon: \(error.message)")
        }
    }

    // MARK: Reports

    /// What the recorder reports to: each transition, shown at once.
    public nonisolated var reporter: PanelReporter { PanelReporter { snapshot in self.assumeIsolated { $0.show(snapshot) } } }

    /// The programs that listen changed: the tooltip names them while a recording exists.
    public func heard(by programs: [String]) {
        heardBy = programs
        present()
    }

    private func show(_ snapshot: RecorderSnapshot) {
        (state, elapsed) = (snapshot.state, snapshot.elapsed)
        present()
        _ = refreshMenu()
    }

    private func present() {
        let old = shown
        shown = TrayPresentation(state: state, elapsed: elapsed, heardBy: heardBy, texts: texts)
        if shown.status != old.status { emitItemSignal("NewStatus", [.string(shown.status.rawValue)]) }
        if shown.iconName != old.iconName { emitItemSignal("NewIcon") }
        if shown.toolTipTitle != old.toolTipTitle || shown.toolTipBody != old.toolTipBody { emitItemSignal("NewToolTip") }
    }

    private func emitItemSignal(_ member: MemberName, _ arguments: [Value] = []) {
        guard watched else { return }
        bus.assumeIsolated {
            try? $0.emit(path: Self.itemPath, interface: StatusNotifierItemInterface.name, member: member, arguments: arguments)
        }
    }

    // MARK: The menu

    /// Makes the menu anew (the state or the locales may have changed) and tells the hosts what changed.
    /// - Returns: whether the layout changed, so that a host about to show it fetches it again.
    func refreshMenu() -> Bool {
        let fresh = TrayMenu(state: state, locales: locales.options(), texts: texts)
        let change = fresh.change(from: menu)
        menu = fresh
        switch change {
        case .none:
            return false
        case .properties(let items):
            let updated = items.map { Value.structure([.int32($0.id), $0.propertyDictionary([])]) }
            emitMenuSignal(
                "ItemsPropertiesUpdated", [.array(element: "(ia{sv})", updated), .array(element: "(ias)", [])])
            return false
        case .layout:
            revision += 1
            emitMenuSignal("LayoutUpdated", [.uint32(revision), .int32(TrayMenu.rootID)])
            return true
        }
    }

    private func emitMenuSignal(_ member: MemberName, _ arguments: [Value]) {
        guard watched else { return }
        bus.assumeIsolated { try? $0.emit(path: Self.menuPath, interface: DBusMenuInterface.name, member: member, arguments: arguments) }
    }

    /// The primary click: records, pauses or resumes, as the recorder's `Toggle` does.
    func activated() throws(BusError) { try perform(.toggle) }

    /// A click on item `id` of the menu the host shows.
    /// - Throws: `InvalidArgs` for an id the menu does not have; the transition's error when it is refused.
    func clicked(_ id: Int32) throws(BusError) {
        guard let item = menu.item(id) else { throw BusError.invalidArgs("The tray menu has no item \(id)") }
        switch item.command {
        case .recording(let action)?: try perform(action)
        case .pickLocale(let locale)?:
            try locales.pick(locale)
            _ = refreshMenu()
        case nil: break
        }
    }

    /// Nobody waits for a click: a failure is reported; a refusal is the click's error.
    private func perform(_ action: RecordingAction) throws(BusError) {
        do throws(RecordingError) { try controls.perform(action) } catch { throw BusError(error) }
    }
}
