import CDBus

// Every read and write of a message body: one recursive walk driven by libdbus's own
// iterators, so containers of any depth take the same path as basic values.

enum TypeCode {
    static let invalid: Int32 = 0
    static func of(_ character: Unicode.Scalar) -> Int32 { Int32(character.value) }
    static let byte = of("y"), boolean = of("b"), int16 = of("n"), uint16 = of("q"), int32 = of("i")
    static let uint32 = of("u"), int64 = of("x"), uint64 = of("t"), double = of("d"), string = of("s")
    static let objectPath = of("o"), signature = of("g"), unixFD = of("h"), array = of("a")
    static let structure = of("r"), variant = of("v"), dictEntry = of("e")
}

/// Appends `values` to `message`. Values are validated first; on failure the message must be dropped.
func appendBody(_ values: [Value], to message: OpaquePointer) throws(BusError) {
    let signature = values.map(\.signatureString).joined()
    guard Signature(signature) != nil else { throw BusError.invalidArgs("Body signature '\(signature)' is not valid") }
    for value in values { try value.validate() }
    var iter = DBusMessageIter()
    dbus_message_iter_init_append(message, &iter)
    for value in values {
        guard append(value, to: &iter) else { throw BusError(.noMemory, "Out of memory while writing a message") }
    }
}

/// Appends a dictionary to `message` entry by entry, as `entries` hands them to `add`, so that
/// the entries never exist all at once besides the message. On failure the message must be dropped.
func appendDictionary(
    key: Signature, value: Signature, to message: OpaquePointer,
    entries: (_ add: (DictionaryEntry) throws(BusError) -> Void) throws(BusError) -> Void
) throws(BusError) {
    let noMemory = BusError(.noMemory, "Out of memory while writing a message")
    var iter = DBusMessageIter()
    dbus_message_iter_init_append(message, &iter)
    var sub = DBusMessageIter()
    guard
        ("{" + key.rawValue + value.rawValue + "}").withCString({ dbus_message_iter_open_container(&iter, TypeCode.array, $0, &sub) != 0 })
    else { throw noMemory }
    do throws(BusError) {
        try withUnsafeMutablePointer(to: &sub) { (entriesIter) throws(BusError) in
            try entries { (entry) throws(BusError) in
                guard entry.key.signature == key, entry.value.signature == value else {
                    throw BusError.invalidArgs(
                        "A dictionary of {\(key)\(value)} got an entry of {\(entry.key.signature)\(entry.value.signature)}")
                }
                try entry.key.validate()
                try entry.value.validate()
                let appended = appendContainer(entriesIter, TypeCode.dictEntry, nil) { entryIter in
                    append(entry.key, to: entryIter) && append(entry.value, to: entryIter)
                }
                guard appended else { throw noMemory }
            }
        }
    } catch {
        dbus_message_iter_abandon_container(&iter, &sub)
        throw error
    }
    guard dbus_message_iter_close_container(&iter, &sub) != 0 else { throw noMemory }
}

private func appendBasic<T: BitwiseCopyable>(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ code: Int32, _ value: T) -> Bool {
    var copy = value
    return dbus_message_iter_append_basic(iter, code, &copy) != 0
}

private func appendString(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ code: Int32, _ string: String) -> Bool {
    string.withCString { pointer in
        var address: UnsafePointer<CChar>? = pointer
        return dbus_message_iter_append_basic(iter, code, &address) != 0
    }
}

private func appendContainer(
    _ iter: UnsafeMutablePointer<DBusMessageIter>, _ code: Int32, _ contained: String?,
    _ body: (UnsafeMutablePointer<DBusMessageIter>) -> Bool
) -> Bool {
    var sub = DBusMessageIter()
    let opened: Bool =
        if let contained { contained.withCString { dbus_message_iter_open_container(iter, code, $0, &sub) != 0 } } else {
            dbus_message_iter_open_container(iter, code, nil, &sub) != 0
        }
    guard opened else { return false }
    guard body(&sub) else {
        dbus_message_iter_abandon_container(iter, &sub)
        return false
    }
    return dbus_message_iter_close_container(iter, &sub) != 0
}

private func append(_ value: Value, to iter: UnsafeMutablePointer<DBusMessageIter>) -> Bool {
    switch value {
    case .byte(let v): return appendBasic(iter, TypeCode.byte, v)
    case .boolean(let v): return appendBasic(iter, TypeCode.boolean, dbus_bool_t(v ? 1 : 0))
    case .int16(let v): return appendBasic(iter, TypeCode.int16, v)
    case .uint16(let v): return appendBasic(iter, TypeCode.uint16, v)
    case .int32(let v): return appendBasic(iter, TypeCode.int32, v)
    case .uint32(let v): return appendBasic(iter, TypeCode.uint32, v)
    case .int64(let v): return appendBasic(iter, TypeCode.int64, v)
    case .uint64(let v): return appendBasic(iter, TypeCode.uint64, v)
    case .double(let v): return appendBasic(iter, TypeCode.double, v)
    case .string(let v): return appendString(iter, TypeCode.string, v)
    case .objectPath(let v): return appendString(iter, TypeCode.objectPath, v.rawValue)
    case .signature(let v): return appendString(iter, TypeCode.signature, v.rawValue)
    case .unixFD(let v): return appendBasic(iter, TypeCode.unixFD, v.rawValue)
    case .scalars(let array): return array.append(to: iter)
    case .array(let element, let values):
        return appendContainer(iter, TypeCode.array, element.rawValue) { sub in
            values.allSatisfy { append($0, to: sub) }
        }
    case .dictionary(let key, let valueType, let entries):
        return appendContainer(iter, TypeCode.array, "{" + key.rawValue + valueType.rawValue + "}") { sub in
            entries.allSatisfy { entry in
                appendContainer(sub, TypeCode.dictEntry, nil) { entryIter in
                    append(entry.key, to: entryIter) && append(entry.value, to: entryIter)
                }
            }
        }
    case .structure(let fields):
        return appendContainer(iter, TypeCode.structure, nil) { sub in fields.allSatisfy { append($0, to: sub) } }
    case .variant(let inner):
        return appendContainer(iter, TypeCode.variant, inner.signatureString) { sub in append(inner, to: sub) }
    }
}

/// Reads the whole body of `message`; libdbus has validated it on arrival.
func readBody(of message: OpaquePointer) -> [Value] {
    var reader = ArgumentReader(message)
    var values: [Value] = []
    while let value = reader.next() { values.append(value) }
    return values
}

/// Reads a received message's arguments one at a time, so that the first ones can be looked at
/// before the rest is paid for. Valid while the message is.
struct ArgumentReader {
    private var iter = DBusMessageIter()
    private var atEnd: Bool

    init(_ message: OpaquePointer) { atEnd = dbus_message_iter_init(message, &iter) == 0 }

    /// The next argument, decoded; nil after the last.
    mutating func next() -> Value? {
        guard !atEnd, let value = read(&iter) else { return nil }
        atEnd = dbus_message_iter_next(&iter) == 0
        return value
    }

    /// The next argument when it is a string; nil, unread, when it is anything else.
    mutating func nextString() -> String? {
        guard !atEnd, dbus_message_iter_get_arg_type(&iter) == TypeCode.string else { return nil }
        return next().flatMap { if case .string(let string) = $0 { string } else { nil } }
    }

    /// The signature of what the next argument, a variant, holds, without reading it; nil when it is no variant.
    mutating func nextVariantContents() -> String? {
        guard !atEnd, dbus_message_iter_get_arg_type(&iter) == TypeCode.variant else { return nil }
        var contents = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &contents)
        return currentSignature(&contents)
    }
}

/// Whether reading the body of `message` would make more than `limit` values: counted without
/// making any, and no further than the limit, so that a peer's millions of strings or structures
/// are refused for the price of `limit` steps. An array of numbers counts as one value.
func bodyHasMoreValues(than limit: Int, _ message: OpaquePointer) -> Bool {
    var iter = DBusMessageIter()
    guard dbus_message_iter_init(message, &iter) != 0 else { return false }
    var remaining = limit
    return !countValues(&iter, within: &remaining)
}

/// Counts the values from `iter` to the end of its container against `remaining`; false once it runs out.
private func countValues(_ iter: UnsafeMutablePointer<DBusMessageIter>, within remaining: inout Int) -> Bool {
    repeat {
        let type = dbus_message_iter_get_arg_type(iter)
        guard type != TypeCode.invalid else { return true }
        remaining -= 1
        guard remaining >= 0 else { return false }
        let isContainer =
            switch type {
            case TypeCode.array: !ScalarArray.isNumber(dbus_message_iter_get_element_type(iter))
            case TypeCode.structure, TypeCode.variant, TypeCode.dictEntry: true
            default: false
            }
        if isContainer {
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(iter, &sub)
            guard countValues(&sub, within: &remaining) else { return false }
        }
    } while dbus_message_iter_next(iter) != 0
    return true
}

private func readBasic<T: BitwiseCopyable>(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ initial: T) -> T {
    var value = initial
    dbus_message_iter_get_basic(iter, &value)
    return value
}

private func readString(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> String {
    var pointer: UnsafePointer<CChar>? = nil
    dbus_message_iter_get_basic(iter, &pointer)
    return pointer.map { String(cString: $0) } ?? ""
}

private func readContents(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> [Value] {
    var sub = DBusMessageIter()
    dbus_message_iter_recurse(iter, &sub)
    var values: [Value] = []
    while dbus_message_iter_get_arg_type(&sub) != TypeCode.invalid {
        guard let value = read(&sub) else { break }
        values.append(value)
        dbus_message_iter_next(&sub)
    }
    return values
}

/// The signature of the value under `iter`, as libdbus reports it.
private func currentSignature(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> String {
    guard let raw = dbus_message_iter_get_signature(iter) else { return "" }
    defer { dbus_free(raw) }
    return String(cString: raw)
}

private func read(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> Value? {
    switch dbus_message_iter_get_arg_type(iter) {
    case TypeCode.byte: return .byte(readBasic(iter, UInt8(0)))
    case TypeCode.boolean: return .boolean(readBasic(iter, dbus_bool_t(0)) != 0)
    case TypeCode.int16: return .int16(readBasic(iter, Int16(0)))
    case TypeCode.uint16: return .uint16(readBasic(iter, UInt16(0)))
    case TypeCode.int32: return .int32(readBasic(iter, Int32(0)))
    case TypeCode.uint32: return .uint32(readBasic(iter, UInt32(0)))
    case TypeCode.int64: return .int64(readBasic(iter, Int64(0)))
    case TypeCode.uint64: return .uint64(readBasic(iter, UInt64(0)))
    case TypeCode.double: return .double(readBasic(iter, Double(0)))
    case TypeCode.string: return .string(readString(iter))
    case TypeCode.objectPath: return .objectPath(ObjectPath(unchecked: readString(iter)))
    case TypeCode.signature: return .signature(Signature(unchecked: readString(iter)))
    case TypeCode.unixFD: return .unixFD(FileDescriptor(owning: readBasic(iter, Int32(-1))))
    case TypeCode.variant: return readContents(iter).first.map(Value.variant)
    case TypeCode.structure: return .structure(readContents(iter))
    case TypeCode.array:
        let element = String(currentSignature(iter).dropFirst())
        if dbus_message_iter_get_element_type(iter) == TypeCode.dictEntry {
            let inner = Signature(unchecked: String(element.dropFirst().dropLast())).completeTypes
            guard inner.count == 2 else { return nil }
            let entries = readContents(iter).compactMap { entry -> DictionaryEntry? in
                guard case .structure(let pair) = entry, pair.count == 2 else { return nil }
                return DictionaryEntry(key: pair[0], value: pair[1])
            }
            return .dictionary(key: inner[0], value: inner[1], entries)
        }
        if let scalars = ScalarArray(reading: iter, elementCode: dbus_message_iter_get_element_type(iter)) { return .scalars(scalars) }
        return .array(element: Signature(unchecked: element), readContents(iter))
    case TypeCode.dictEntry: return .structure(readContents(iter))
    default: return nil
    }
}
