/// An error as D-Bus carries it: a name a program matches on and a message a person reads.
public struct BusError: Error, Sendable, Equatable, CustomStringConvertible {
    public let name: ErrorName
    public let message: String

    public init(_ name: ErrorName, _ message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    public static func failed(_ message: String) -> BusError { BusError(.failed, message) }
    public static func invalidArgs(_ message: String) -> BusError { BusError(.invalidArgs, message) }
}

extension ErrorName {
    public static let failed: ErrorName = "org.freedesktop.DBus.Error.Failed"
    public static let invalidArgs: ErrorName = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let unknownObject: ErrorName = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownInterface: ErrorName = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let unknownMethod: ErrorName = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownProperty: ErrorName = "org.freedesktop.DBus.Error.UnknownProperty"
    public static let propertyReadOnly: ErrorName = "org.freedesktop.DBus.Error.PropertyReadOnly"
    public static let serviceUnknown: ErrorName = "org.freedesktop.DBus.Error.ServiceUnknown"
    public static let nameHasNoOwner: ErrorName = "org.freedesktop.DBus.Error.NameHasNoOwner"
    public static let noReply: ErrorName = "org.freedesktop.DBus.Error.NoReply"
    public static let timeout: ErrorName = "org.freedesktop.DBus.Error.Timeout"
    public static let disconnected: ErrorName = "org.freedesktop.DBus.Error.Disconnected"
    public static let noServer: ErrorName = "org.freedesktop.DBus.Error.NoServer"
    public static let noMemory: ErrorName = "org.freedesktop.DBus.Error.NoMemory"
    public static let accessDenied: ErrorName = "org.freedesktop.DBus.Error.AccessDenied"
    public static let notSupported: ErrorName = "org.freedesktop.DBus.Error.NotSupported"
    public static let limitsExceeded: ErrorName = "org.freedesktop.DBus.Error.LimitsExceeded"
}
