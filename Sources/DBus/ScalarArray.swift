import CDBus

/// An array of fixed-size numbers (`ay`, `ab`, `an`, `aq`, `ai`, `au`, `ax`, `at`, `ad`) held as
/// the numbers themselves: a peer's million elements cost their own bytes, not a boxed `Value` each.
public enum ScalarArray: Hashable, Sendable {
    case bytes([UInt8])
    case booleans([Bool])
    case int16s([Int16])
    case uint16s([UInt16])
    case int32s([Int32])
    case uint32s([UInt32])
    case int64s([Int64])
    case uint64s([UInt64])
    case doubles([Double])

    /// `array` held compactly, when its elements are one of the fixed-size numbers.
    init?<Element>(_ array: [Element]) {
        // By the element type, not by casting the array: an empty array casts to an array of any element type, and an
        // empty `[String]` went out as `ay`.
        switch Element.self {
        case is UInt8.Type: self = .bytes(array as! [UInt8])
        case is Bool.Type: self = .booleans(array as! [Bool])
        case is Int16.Type: self = .int16s(array as! [Int16])
        case is UInt16.Type: self = .uint16s(array as! [UInt16])
        case is Int32.Type: self = .int32s(array as! [Int32])
        case is UInt32.Type: self = .uint32s(array as! [UInt32])
        case is Int64.Type: self = .int64s(array as! [Int64])
        case is UInt64.Type: self = .uint64s(array as! [UInt64])
        case is Double.Type: self = .doubles(array as! [Double])
        default: return nil
        }
    }

    /// The elements, as whichever of the number arrays they are.
    var elements: Any {
        switch self {
        case .bytes(let array): array
        case .booleans(let array): array
        case .int16s(let array): array
        case .uint16s(let array): array
        case .int32s(let array): array
        case .uint32s(let array): array
        case .int64s(let array): array
        case .uint64s(let array): array
        case .doubles(let array): array
        }
    }

    /// The elements' type code (`y` for `.bytes`).
    var elementCode: Int32 {
        switch self {
        case .bytes: TypeCode.byte
        case .booleans: TypeCode.boolean
        case .int16s: TypeCode.int16
        case .uint16s: TypeCode.uint16
        case .int32s: TypeCode.int32
        case .uint32s: TypeCode.uint32
        case .int64s: TypeCode.int64
        case .uint64s: TypeCode.uint64
        case .doubles: TypeCode.double
        }
    }

    var count: Int {
        switch self {
        case .bytes(let array): array.count
        case .booleans(let array): array.count
        case .int16s(let array): array.count
        case .uint16s(let array): array.count
        case .int32s(let array): array.count
        case .uint32s(let array): array.count
        case .int64s(let array): array.count
        case .uint64s(let array): array.count
        case .doubles(let array): array.count
        }
    }

    /// The array's length on the wire.
    var byteCount: Int {
        switch self {
        case .bytes: count
        case .int16s, .uint16s: count * 2
        case .booleans, .int32s, .uint32s: count * 4
        case .int64s, .uint64s, .doubles: count * 8
        }
    }

    /// The array's signature (`ay` for `.bytes`).
    var signatureString: String { "a" + String(UnicodeScalar(UInt8(elementCode))) }

    /// Whether elements of `code` are read as a `ScalarArray`.
    static func isNumber(_ code: Int32) -> Bool {
        switch code {
        case TypeCode.byte, TypeCode.boolean, TypeCode.int16, TypeCode.uint16, TypeCode.int32, TypeCode.uint32, TypeCode.int64,
            TypeCode.uint64, TypeCode.double:
            true
        default: false
        }
    }

    /// Reads the array under `iter`, whose elements are of `elementCode`, in one copy; nil for another element type.
    /// The corresponding C function is `dbus_message_iter_get_fixed_array`.
    init?(reading iter: UnsafeMutablePointer<DBusMessageIter>, elementCode: Int32) {
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(iter, &sub)
        func read<T>(_: T.Type) -> [T] {
            var start: UnsafeMutableRawPointer?
            var count: Int32 = 0
            dbus_message_iter_get_fixed_array(&sub, &start, &count)
            guard let start, count > 0 else { return [] }
            return Array(UnsafeBufferPointer(start: start.assumingMemoryBound(to: T.self), count: Int(count)))
        }
        switch elementCode {
        case TypeCode.byte: self = .bytes(read(UInt8.self))
        case TypeCode.boolean: self = .booleans(read(dbus_bool_t.self).map { $0 != 0 })
        case TypeCode.int16: self = .int16s(read(Int16.self))
        case TypeCode.uint16: self = .uint16s(read(UInt16.self))
        case TypeCode.int32: self = .int32s(read(Int32.self))
        case TypeCode.uint32: self = .uint32s(read(UInt32.self))
        case TypeCode.int64: self = .int64s(read(Int64.self))
        case TypeCode.uint64: self = .uint64s(read(UInt64.self))
        case TypeCode.double: self = .doubles(read(Double.self))
        default: return nil
        }
    }

    /// Appends the array to `iter` in one copy.
    /// The corresponding C function is `dbus_message_iter_append_fixed_array`.
    func append(to iter: UnsafeMutablePointer<DBusMessageIter>) -> Bool {
        var sub = DBusMessageIter()
        let code = String(UnicodeScalar(UInt8(elementCode)))
        guard code.withCString({ dbus_message_iter_open_container(iter, TypeCode.array, $0, &sub) != 0 }) else { return false }
        func write<T>(_ array: [T]) -> Bool {
            array.withUnsafeBufferPointer { buffer in
                guard !buffer.isEmpty else { return true }
                var start = buffer.baseAddress.map(UnsafeRawPointer.init)
                return dbus_message_iter_append_fixed_array(&sub, elementCode, &start, Int32(buffer.count)) != 0
            }
        }
        let written =
            switch self {
            case .bytes(let array): write(array)
            case .booleans(let array): write(array.map { dbus_bool_t($0 ? 1 : 0) })
            case .int16s(let array): write(array)
            case .uint16s(let array): write(array)
            case .int32s(let array): write(array)
            case .uint32s(let array): write(array)
            case .int64s(let array): write(array)
            case .uint64s(let array): write(array)
            case .doubles(let array): write(array)
            }
        guard written else {
            dbus_message_iter_abandon_container(iter, &sub)
            return false
        }
        return dbus_message_iter_close_container(iter, &sub) != 0
    }
}
