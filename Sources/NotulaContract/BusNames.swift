import DBus

/// The names of Notula's public contract on the bus, as `dbus/*.xml` declares them.
public enum NotulaBus {
    public static let name: BusName = "org.notula.Notula1"
    public static let rootPath = ObjectPath("/org/notula/Notula1")!
    public static let recorderPath = ObjectPath("/org/notula/Notula1/Recorder")!
    public static let modelsPath = ObjectPath("/org/notula/Notula1/Models")!
    public static let libraryPath = ObjectPath("/org/notula/Notula1/Library")!
    /// Each memo is an object below this path, named by its id.
    public static let memosPath = ObjectPath("/org/notula/Notula1/Memos")!
    /// Where Notula's GNOME Shell extension describes the focused window, on the Shell's own connection.
    public static let focusedWindowPath = ObjectPath("/org/notula/Notula1/FocusedWindow")!
    /// Where notulad hears KWin's script report the focused window, on KDE's Wayland session.
    public static let focusReportPath = ObjectPath("/org/notula/Notula1/FocusReport")!

    public static let recorderInterface = Recorder.name
    public static let modelsInterface = Models.name
    public static let libraryInterface = Library.name
    public static let memoInterface = Memo.name

    /// Every interface of the contract, one `dbus/<name>.xml` each.
    public static let interfaces: [any NotulaInterface.Type] = [
        Recorder.self, Models.self, Library.self, Memo.self, FocusedWindow.self, FocusReport.self,
    ]
}

/// The error names of the contract's replies and `Failed` signals.
public enum NotulaErrorName: ErrorName, CaseIterable, Sendable {
    case invalidState = "org.notula.Notula1.Error.InvalidState"
    case deviceUnavailable = "org.notula.Notula1.Error.DeviceUnavailable"
    case permissionDenied = "org.notula.Notula1.Error.PermissionDenied"
    case noSpace = "org.notula.Notula1.Error.NoSpace"
    case engineUnavailable = "org.notula.Notula1.Error.EngineUnavailable"
    case modelUnavailable = "org.notula.Notula1.Error.ModelUnavailable"
    case outputUnavailable = "org.notula.Notula1.Error.OutputUnavailable"
    case notAllowed = "org.notula.Notula1.Error.NotAllowed"
    case failed = "org.notula.Notula1.Error.Failed"
}

// The names as the service throws them: `BusError(.noSpace, …)`.
extension ErrorName {
    public static let invalidState = NotulaErrorName.invalidState.rawValue
    public static let deviceUnavailable = NotulaErrorName.deviceUnavailable.rawValue
    public static let permissionDenied = NotulaErrorName.permissionDenied.rawValue
    public static let noSpace = NotulaErrorName.noSpace.rawValue
    public static let engineUnavailable = NotulaErrorName.engineUnavailable.rawValue
    public static let modelUnavailable = NotulaErrorName.modelUnavailable.rawValue
    public static let outputUnavailable = NotulaErrorName.outputUnavailable.rawValue
    public static let notAllowed = NotulaErrorName.notAllowed.rawValue
    public static let notulaFailed = NotulaErrorName.failed.rawValue
}
