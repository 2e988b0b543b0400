// Validated names: a string that reaches libdbus has passed these checks first,
// because libdbus aborts the process on an invalid name.

/// An object path such as `/org/notula/Notula1/Recorder`.
public struct ObjectPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String

    /// Fails unless `rawValue` is `/` or `/`-separated non-empty elements of `[A-Za-z0-9_]`.
    public init?(_ rawValue: String) {
        guard Self.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    public static let root = ObjectPath(unchecked: "/")

    init(unchecked rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
    public static func < (a: ObjectPath, b: ObjectPath) -> Bool { a.rawValue < b.rawValue }

    /// The path one element below this one.
    public func appending(_ element: String) -> ObjectPath? {
        ObjectPath(rawValue == "/" ? "/" + element : rawValue + "/" + element)
    }

    /// The elements below `ancestor` on the way to this path, or nil when this path is not below it.
    func elements(below ancestor: ObjectPath) -> ArraySlice<Substring>? {
        let mine = rawValue.split(separator: "/")
        let theirs = ancestor.rawValue.split(separator: "/")
        guard mine.count > theirs.count, mine.starts(with: theirs) else { return nil }
        return mine.dropFirst(theirs.count)
    }

    static func isValid(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        guard bytes.last != UInt8(ascii: "/") else { return false }
        var previousWasSlash = false
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: "/") {
                if previousWasSlash { return false }
                previousWasSlash = true
            } else {
                guard isNameCharacter(byte) else { return false }
                previousWasSlash = false
            }
        }
        return true
    }
}

/// An interface name such as `org.notula.Notula1.Recorder`.
public struct InterfaceName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init?(_ rawValue: String) {
        guard isDottedName(rawValue, allowHyphen: false, allowDigitStart: false) else { return nil }
        self.rawValue = rawValue
    }
    /// For names written in the source: an invalid literal is a programming error.
    public init(stringLiteral value: String) {
        guard let name = InterfaceName(value) else { preconditionFailure("invalid interface name \(value)") }
        self = name
    }
    public var description: String { rawValue }
}

/// An error name such as `org.notula.Notula1.Error.InvalidState`; the same rules as interface names.
public struct ErrorName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init?(_ rawValue: String) {
        guard isDottedName(rawValue, allowHyphen: false, allowDigitStart: false) else { return nil }
        self.rawValue = rawValue
    }
    public init(stringLiteral value: String) {
        guard let name = ErrorName(value) else { preconditionFailure("invalid error name \(value)") }
        self = name
    }
    public var description: String { rawValue }
}

/// A method, signal or property name such as `Toggle`.
public struct MemberName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init?(_ rawValue: String) {
        let bytes = Array(rawValue.utf8)
        guard (1...255).contains(bytes.count), !isDigit(bytes[0]), bytes.allSatisfy(isNameCharacter) else { return nil }
        self.rawValue = rawValue
    }
    public init(stringLiteral value: String) {
        guard let name = MemberName(value) else { preconditionFailure("invalid member name \(value)") }
        self = name
    }
    public var description: String { rawValue }
}

/// A bus name: unique (`:1.42`) or well-known (`org.notula.Notula1`).
public struct BusName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String
    public init?(_ rawValue: String) {
        if rawValue.hasPrefix(":") {
            guard isDottedName(String(rawValue.dropFirst()), allowHyphen: true, allowDigitStart: true),
                rawValue.utf8.count <= 255
            else { return nil }
        } else {
            guard isDottedName(rawValue, allowHyphen: true, allowDigitStart: false) else { return nil }
        }
        self.rawValue = rawValue
    }
    public init(stringLiteral value: String) {
        guard let name = BusName(value) else { preconditionFailure("invalid bus name \(value)") }
        self = name
    }
    public var isUnique: Bool { rawValue.hasPrefix(":") }
    public var description: String { rawValue }
}

func isNameCharacter(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || isDigit(byte) || byte == UInt8(ascii: "_")
}

func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

/// Two or more `.`-separated non-empty elements, at most 255 bytes in all.
func isDottedName(_ s: String, allowHyphen: Bool, allowDigitStart: Bool) -> Bool {
    let bytes = Array(s.utf8)
    guard (1...255).contains(bytes.count) else { return false }
    let elements = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard elements.count >= 2 else { return false }
    for element in elements {
        guard let first = element.first else { return false }
        if isDigit(first) && !allowDigitStart { return false }
        for byte in element where !(isNameCharacter(byte) || (allowHyphen && byte == UInt8(ascii: "-"))) {
            return false
        }
    }
    return true
}

extension BusName {
    /// The bus daemon itself, the sender of `NameOwnerChanged`: a name nobody else can send from.
    public static let daemon: BusName = "org.freedesktop.DBus"
}

extension InterfaceName {
    /// The bus daemon's interface.
    public static let daemon: InterfaceName = "org.freedesktop.DBus"
}
