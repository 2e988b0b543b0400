import DBus

/// The names of Notula's public contract on the bus.
public enum NotulaBus {
    public static let name: BusName = "org.notula.Notula1"
    public static let recorderPath = ObjectPath("/org/notula/Notula1/Recorder")!
    public static let recorderInterface: InterfaceName = "org.notula.Notula1.Recorder"
    public static let memoInterface: InterfaceName = "org.notula.Notula1.Memo"
    public static let modelsPath = ObjectPath("/org/notula/Notula1/Models")!
    public static let modelsInterface: InterfaceName = "org.notula.Notula1.Models"
    public static let rootPath = ObjectPath("/org/notula/Notula1")!
    public static let libraryPath = ObjectPath("/org/notula/Notula1/Library")!
    public static let libraryInterface: InterfaceName = "org.notula.Notula1.Library"
    static let memosPath = ObjectPath("/org/notula/Notula1/Memos")!
}

extension ErrorName {
    static let invalidState: ErrorName = "org.notula.Notula1.Error.InvalidState"
    static let deviceUnavailable: ErrorName = "org.notula.Notula1.Error.DeviceUnavailable"
    static let permissionDenied: ErrorName = "org.notula.Notula1.Error.PermissionDenied"
    static let noSpace: ErrorName = "org.notula.Notula1.Error.NoSpace"
    static let engineUnavailable: ErrorName = "org.notula.Notula1.Error.EngineUnavailable"
    static let modelUnavailable: ErrorName = "org.notula.Notula1.Error.ModelUnavailable"
    static let notulaFailed: ErrorName = "org.notula.Notula1.Error.Failed"
    static let accessDenied: ErrorName = "org.freedesktop.DBus.Error.AccessDenied"
}
