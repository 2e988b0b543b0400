/// A Swift type with one fixed D-Bus type: its signature is known without a bus.
public protocol DBusRepresentable: Sendable {
    static var dbusSignature: Signature { get }
    var dbusValue: Value { get }
    /// - Throws: `InvalidArgs` when `dbusValue` is of another type.
    init(dbusValue: Value) throws(BusError)
}

/// The types that can be dictionary keys.
public protocol DBusBasicRepresentable: DBusRepresentable, Hashable {}

func typeMismatch<T: DBusRepresentable>(_ value: Value, _ type: T.Type) -> BusError {
    BusError.invalidArgs("Expected a value of type '\(T.dbusSignature)', got '\(value.signatureString)'")
}

extension UInt8: DBusBasicRepresentable {
    public static var dbusSignature: Signature { "y" }
    public var dbusValue: Value { .byte(self) }
    public init(dbusValue: Value) throws(BusError) {
        guard case .byte(let v) = dbusValue else { throw typeMismatch(dbusValue, Self.self) }
        self = v
    }
}

extension Bool: DBusBasicRepresentable {
    public static var dbusSignature: Signature { "b" }
    public var dbusValue: Value { .boolean(self) }
    public init(dbusValue: Value) throws(BusError) {
        guard case .boolean(let v) = dbusValue else { throw typeMismatch(dbusValue, Self.self) }
        self = v
    }
}

extension Int16: DBusBasicRepresentable {
    public static var dbusSignature: Signature { "n" }
    public var dbusValue: Value { .int16(self) }
    public init(dbusValue: Value) throws(BusError) {
        guard case .int16(let v) = dbusValue else { throw typeMismatch(dbusValue, Self.self) }
        self = v
    }
}

extension UInt16: DBusBasicRepresentable {
    public static var dbusSignature: Signature { "q" }
    public var dbusValue: Value { .uint16(self) }
    public init(dbusValue: Value) throws(BusError) {
        guard case .uint16(let v) = dbusValue else { throw typeMismatch(dbusValue, Self.self) }
        self = v
    }
}

extension Int32: DBusBasicRepresentable {
    public static var dbusSignature: Signature { "i" }
    public var dbusValue: Value { .int32(self) }
    public init(dbusValue: Value) throws(BusError) {
        guard case .int32(let v) = dbusValue else { throw typeMismatch(dbusValue, Self.self) }
        self = v
    }
}

extension UInt32: DBusBasicRepresentable {
    public static var dbusSignature: Signature { "u" }
    public var dbusValue: Value { .uint32(self) }
    public init(dbusValue: Value) throws(BusError) {
        guard case .uint32(let v) = dbusValue else { throw typeMismatch(dbusValue, Self.self) }
        self = v
    }
}

extension Int64: DBusBasicRepresentable {
    public static var dbusSignature: Signature { "x" }
    public var dbusValue: Value { .int64(self) }
    public init(dbusValue: Value) throws(BusError) {
        guard case .int64(let v) = dbusValue else { throw typeMismatch(dbusValue, Self.self) }
        self = v
    }
}

extension UInt64: DBusBasicRepresentable {
    public static var dbusSignature: Signature { "t" }
    public var dbusValue: Value { .uint64(self) }
    public init(dbusValue: Value) throws(BusError) {
        guard case .uint64(let v) = dbusValue else { throw typeMismatch(dbusValue, Self.self) }
        self = v
    }
}

extension Double: DBusBasicRepresentable {
    public static var dbusSignature: Signature { "d" }
    public var dbusValue: Value { .double(self) }
    public init(dbusValue: Value) throws(BusError) {
        guard case .double(let v) = dbusValue else { throw typeMismatch(dbusValue, Self.self) }
        self = v
    }
}

extension String: DBusBasicRepresentable {
    public static var dbusSignature: Signature { "s" }
    public var dbusValue: Value { .string(self) }
    public init(dbusValue: Value) throws(BusError) {
        guard case .string(let v) = dbusValue else { throw typeMismatch(dbusValue, Self.self) }
        self = v
    }
}

extension ObjectPath: DBusBasicRepresentable {
    public static var dbusSignature: Signature { "o" }
    public var dbusValue: Value { .objectPath(self) }
    public init(dbusValue: Value) throws(BusError) {
        guard case .objectPath(let v) = dbusValue else { throw typeMismatch(dbusValue, Self.self) }
        self = v
    }
}

extension Signature: DBusBasicRepresentable {
    public static var dbusSignature: Signature { "g" }
    public var dbusValue: Value { .signature(self) }
    public init(dbusValue: Value) throws(BusError) {
        guard case .signature(let v) = dbusValue else { throw typeMismatch(dbusValue, Self.self) }
        self = v
    }
}

extension FileDescriptor: DBusBasicRepresentable {
    public static var dbusSignature: Signature { "h" }
    public var dbusValue: Value { .unixFD(self) }
    public convenience init(dbusValue: Value) throws(BusError) {
        guard case .unixFD(let v) = dbusValue else { throw typeMismatch(dbusValue, FileDescriptor.self) }
        self.init(owning: duplicateDescriptor(v.rawValue))
    }
}

/// A value of any type, carried with its signature (`v`).
public struct Variant: DBusRepresentable, Hashable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
    public init<T: DBusRepresentable>(_ value: T) { self.value = value.dbusValue }
    public static var dbusSignature: Signature { "v" }
    public var dbusValue: Value { .variant(value) }
    public init(dbusValue: Value) throws(BusError) {
        guard case .variant(let v) = dbusValue else { throw typeMismatch(dbusValue, Self.self) }
        value = v
    }
    /// The carried value as `T`; `InvalidArgs` when it is of another type.
    public func get<T: DBusRepresentable>(_ type: T.Type = T.self) throws(BusError) -> T { try T(dbusValue: value) }
}

extension Array: DBusRepresentable where Element: DBusRepresentable {
    public static var dbusSignature: Signature { Signature(unchecked: "a" + Element.dbusSignature.rawValue) }
    public var dbusValue: Value {
        if let scalars = ScalarArray(self) { return .scalars(scalars) }
        return .array(element: Element.dbusSignature, map(\.dbusValue))
    }
    public init(dbusValue: Value) throws(BusError) {
        if case .scalars(let scalars) = dbusValue {
            // The element type checked too: an empty array of numbers casts to an empty array of anything.
            guard Element.dbusSignature.rawValue.utf8.first.map(Int32.init) == scalars.elementCode, let array = scalars.elements as? Self
            else { throw typeMismatch(dbusValue, Self.self) }
            self = array
            return
        }
        guard case .array(let element, let values) = dbusValue, element == Element.dbusSignature else {
            throw typeMismatch(dbusValue, Self.self)
        }
        self = []
        reserveCapacity(values.count)
        for value in values { append(try Element(dbusValue: value)) }
    }
}

extension Dictionary: DBusRepresentable where Key: DBusBasicRepresentable, Value: DBusRepresentable {
    public static var dbusSignature: Signature {
        Signature(unchecked: "a{" + Key.dbusSignature.rawValue + Value.dbusSignature.rawValue + "}")
    }
    public var dbusValue: DBus.Value {
        .dictionary(
            key: Key.dbusSignature, value: Value.dbusSignature,
            map { DictionaryEntry(key: $0.key.dbusValue, value: $0.value.dbusValue) })
    }
    public init(dbusValue: DBus.Value) throws(BusError) {
        guard case .dictionary(let key, let value, let entries) = dbusValue, key == Key.dbusSignature,
            value == Value.dbusSignature
        else { throw typeMismatch(dbusValue, Self.self) }
        self = [:]
        for entry in entries { self[try Key(dbusValue: entry.key)] = try Value(dbusValue: entry.value) }
    }
}

/// A D-Bus struct of statically typed fields: `DBusStruct<String, Int32>` is `(si)`.
public struct DBusStruct<each Field: DBusRepresentable>: DBusRepresentable {
    public let fields: (repeat each Field)
    public init(_ fields: repeat each Field) { self.fields = (repeat each fields) }

    public static var dbusSignature: Signature {
        var signature = "("
        for fieldSignature in repeat (each Field).dbusSignature { signature += fieldSignature.rawValue }
        return Signature(unchecked: signature + ")")
    }

    public var dbusValue: Value {
        var values: [Value] = []
        for field in repeat each fields { values.append(field.dbusValue) }
        return .structure(values)
    }

    public init(dbusValue: Value) throws(BusError) {
        guard case .structure(let values) = dbusValue, dbusValue.signature == Self.dbusSignature else {
            throw typeMismatch(dbusValue, Self.self)
        }
        var index = 0
        func next<F: DBusRepresentable>(_ type: F.Type) throws(BusError) -> F {
            defer { index += 1 }
            return try F(dbusValue: values[index])
        }
        fields = (repeat try next((each Field).self))
    }
}
