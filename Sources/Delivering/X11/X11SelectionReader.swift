import CX11

/// Reads X11's CLIPBOARD as a pasting client does (ICCCM 2.4): the owner's `TARGETS`, and one target's bytes,
/// taken in parts where the owner sends them incrementally (`INCR`: images, large texts). Every wait has a deadline,
/// every read a size limit: the owner is any program.
struct X11SelectionReader {
    let connection: XConnection

    /// The most targets named: each name is a round trip to the server.
    static let mostTargets = 64

    /// The targets the owner offers, in its order; empty where there is no owner or it does not answer.
    func targets(before deadline: ContinuousClock.Instant) -> [String] {
        let clipboard = connection.atom("CLIPBOARD")
        guard connection.owner(of: clipboard) != 0,
            let value = convert("TARGETS", limit: 16 << 10, before: deadline),
            value.format == 32
        else { return [] }
        let atoms = value.bytes.withUnsafeBytes { Array($0.bindMemory(to: CLong.self)) }
        return atoms.prefix(Self.mostTargets).compactMap { connection.name(of: XConnection.Atom(bitPattern: $0)) }
    }

    /// The bytes of `target`, at most `limit`; nil where it is refused, larger, or not whole by `deadline`.
    func bytes(of target: String, limit: Int, before deadline: ContinuousClock.Instant) -> [UInt8]? {
        guard let value = convert(target, limit: limit, before: deadline), value.format == 8 else { return nil }
        return value.bytes
    }

    private func convert(_ target: String, limit: Int, before deadline: ContinuousClock.Instant) -> XConnection.PropertyValue? {
        let clipboard = connection.atom("CLIPBOARD")
        let property = connection.atom("NOTULA_SELECTION")
        connection.convert(clipboard, to: connection.atom(target), into: property)
        while let event = connection.nextEvent(before: deadline) {
            guard event.type == SelectionNotify, event.xselection.requestor == connection.window,
                event.xselection.selection == clipboard
            else { continue }
            guard event.xselection.property == property,
                let value = connection.takeProperty(property, limit: max(limit, 4))
            else { return nil }
            guard value.type == connection.atom("INCR") else { return value.bytes.count <= limit ? value : nil }
            // Deleting the INCR property (done by takeProperty) asks for the first part.
            return incremental(property, limit: limit, before: deadline)
        }
        return nil
    }

    /// The parts of an incremental transfer: each new value of `property` is one, read and deleted to ask for the
    /// next; an empty one ends it.
    private func incremental(_ property: XConnection.Atom, limit: Int, before deadline: ContinuousClock.Instant) -> XConnection.PropertyValue? {
        var bytes: [UInt8] = []
        var type: XConnection.Atom = 0
        while let event = connection.nextEvent(before: deadline) {
            guard event.type == PropertyNotify, event.xproperty.window == connection.window, event.xproperty.atom == property,
                event.xproperty.state == PropertyNewValue
            else { continue }
            guard let part = connection.takeProperty(property, limit: limit - bytes.count), part.format == 8 else { return nil }
            if part.bytes.isEmpty { return XConnection.PropertyValue(type: type, format: 8, bytes: bytes) }
            type = part.type
            bytes += part.bytes
        }
        return nil
    }
}
