/// Any D-Bus value, typed by its case: the form a message body is read into and written from.
public indirect enum Value: Hashable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(ObjectPath)
    case signature(Signature)
    case unixFD(FileDescriptor)
    /// An array whose elements all have the signature `element`.
    case array(element: Signature, [Value])
    /// An array of fixed-size numbers, unboxed: how such arrays are read from a message.
    case scalars(ScalarArray)
    /// An array of dict entries `a{kv}`; keys are basic values.
    case dictionary(key: Signature, value: Signature, [DictionaryEntry])
    case structure([Value])
    case variant(Value)

    /// The signature of this value as one complete type.
    public var signature: Signature { Signature(unchecked: signatureString) }

    var signatureString: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element, _): "a" + element.rawValue
        case .scalars(let array): array.signatureString
        case .dictionary(let key, let value, _): "a{" + key.rawValue + value.rawValue + "}"
        case .structure(let fields): "(" + fields.map(\.signatureString).joined() + ")"
        case .variant: "v"
        }
    }

    /// Checks what the type system cannot: homogeneous arrays, strings without NUL,
    /// and the spec's nesting limit, so that libdbus is never handed a value it would abort on.
    func validate(depth: Int = 0) throws(BusError) {
        guard depth <= 64 else { throw BusError.invalidArgs("Value nested deeper than 64 containers") }
        switch self {
        case .string(let s):
            guard !s.utf8.contains(0) else { throw BusError.invalidArgs("String contains a NUL character") }
        case .array(let element, let values):
            guard element.isSingleCompleteType else {
                throw BusError.invalidArgs("Array element type '\(element)' is not one complete type")
            }
            for value in values {
                guard value.signatureString == element.rawValue else {
                    throw BusError.invalidArgs("Array of '\(element)' holds a '\(value.signatureString)'")
                }
                try value.validate(depth: depth + 1)
            }
        case .scalars(let array):
            // The spec's limit; past it libdbus would refuse the whole message.
            guard array.byteCount <= 1 << 26 else { throw BusError.invalidArgs("Array of \(array.byteCount) bytes is longer than 64 MiB") }
        case .dictionary(let key, let valueType, let entries):
            guard key.isSingleCompleteType, let code = key.rawValue.utf8.first, Signature.basicCodes.contains(code),
                valueType.isSingleCompleteType
            else { throw BusError.invalidArgs("Dictionary type a{\(key)\(valueType)} is not valid") }
            for entry in entries {
                guard entry.key.signatureString == key.rawValue, entry.value.signatureString == valueType.rawValue else {
                    throw BusError.invalidArgs("Dictionary a{\(key)\(valueType)} holds an entry of another type")
                }
                try entry.key.validate(depth: depth + 2)
                try entry.value.validate(depth: depth + 2)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw BusError.invalidArgs("Empty structs are not allowed") }
            for field in fields { try field.validate(depth: depth + 1) }
        case .variant(let inner):
            try inner.validate(depth: depth + 1)
        default:
            break
        }
    }
}

/// One entry of a `.dictionary`.
public struct DictionaryEntry: Hashable, Sendable {
    public let key: Value
    public let value: Value
    public init(key: Value, value: Value) {
        self.key = key
        self.value = value
    }
}

/// A file descriptor received from or sent to a peer; closed when the last reference goes.
public final class FileDescriptor: Hashable, Sendable {
    public let rawValue: Int32
    /// Takes ownership of `rawValue`.
    public init(owning rawValue: Int32) { self.rawValue = rawValue }
    deinit { closeDescriptor(rawValue) }
    public static func == (a: FileDescriptor, b: FileDescriptor) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
