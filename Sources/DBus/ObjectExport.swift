import CDBus

/// The answer of the bus daemon to `RequestName`.
public enum NameRequestResult: UInt32, Sendable {
    case primaryOwner = 1, inQueue, exists, alreadyOwner
}

extension Bus {
    // MARK: Exported objects

    /// Exports an object at `path` with `interfaces` (the standard interfaces come with it),
    /// replacing what was there.
    public func export(_ path: ObjectPath, interfaces: [Interface]) {
        let old = objects.updateValue(interfaces, forKey: path) ?? []
        announceManagedChange(at: path, from: old, to: interfaces)
    }

    /// Removes the object at `path`.
    public func unexport(_ path: ObjectPath) {
        let old = objects.removeValue(forKey: path) ?? []
        announceManagedChange(at: path, from: old, to: [])
    }

    /// Emits `PropertiesChanged` for `names` of `interface` at `path`, with their current values
    /// (or as invalidated, for properties that announce changes that way). A property annotated
    /// `false` changes without a signal of its own, but is sent when named here.
    public func emitPropertiesChanged(path: ObjectPath, interface: InterfaceName, names: [MemberName]) {
        guard let definition = interfaces(at: path)?.first(where: { $0.name == interface }) else { return }
        var changed: [DictionaryEntry] = []
        var invalidated: [Value] = []
        for name in names {
            guard let property = definition.property(named: name.rawValue) else { continue }
            switch property.emitsChanged {
            case .true, .false: changed.append(DictionaryEntry(key: .string(name.rawValue), value: .variant(property.getter())))
            case .invalidates: invalidated.append(.string(name.rawValue))
            case .const: continue
            }
        }
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        try? emit(
            path: path, interface: .properties, member: "PropertiesChanged",
            arguments: [
                .string(interface.rawValue), .dictionary(key: "s", value: "v", changed), .array(element: "s", invalidated),
            ])
    }

    /// The names of the nodes directly below `path` that lead to exported objects.
    func children(of path: ObjectPath) -> [String] {
        var names = Set(objects.keys.compactMap { $0.elements(below: path)?.first.map(String.init) })
        names.formUnion(subtrees.keys.compactMap { $0.elements(below: path)?.first.map(String.init) })
        if let subtree = subtrees[path] { names.formUnion(subtree.names) }
        return names.sorted()
    }

    // MARK: Incoming method calls

    /// Keeps incoming method calls unanswered until `answerHeldCalls()`: for a service that owns its
    /// name before its objects are ready (taking it over from another instance), so that its callers
    /// wait a moment rather than get `UnknownObject`.
    public func holdCalls() {
        if heldCalls == nil { heldCalls = [] }
    }

    /// Handles the calls held since `holdCalls()`, in the order they came, and stops holding.
    public func answerHeldCalls() {
        let calls = heldCalls ?? []
        heldCalls = nil
        for raw in calls {
            handleMethodCall(raw)
            dbus_message_unref(raw)
        }
    }

    func handleMethodCall(_ raw: OpaquePointer) {
        if heldCalls != nil {
            dbus_message_ref(raw)
            heldCalls?.append(raw)
            return
        }
        let call = MessageHeader(raw)
        let outcome: Result<MethodReply, BusError>
        heldSignals = []
        defer {
            let caused = heldSignals ?? []
            heldSignals = nil
            caused.forEach(send)
        }
        do { outcome = .success(try route(call, raw)) } catch { outcome = .failure(error) }
        switch outcome {
        case .success(.now(let values)): reply(to: raw, with: .success(values))
        case .failure(let error): reply(to: raw, with: .failure(error))
        case .success(.dictionary(let key, let value, let entries)):
            reply(to: raw) { (message) throws(BusError) in try appendDictionary(key: key, value: value, to: message, entries: entries) }
        case .success(.later(let work)):
            let token = takeToken()
            dbus_message_ref(raw)
            deferredReplies[token] = raw
            Task {
                let result: Result<[Value], BusError>
                do throws(BusError) { result = .success(try await work()) } catch { result = .failure(error) }
                self.finishDeferred(token, with: result)
            }
        }
    }

    private func finishDeferred(_ token: Int, with result: Result<[Value], BusError>) {
        guard let raw = deferredReplies.removeValue(forKey: token) else { return }
        defer { dbus_message_unref(raw) }
        reply(to: raw, with: result)
    }

    private func reply(to raw: OpaquePointer, with result: Result<[Value], BusError>) {
        switch result {
        case .success(let values): reply(to: raw) { (message) throws(BusError) in try appendBody(values, to: message) }
        case .failure(let error):
            guard dbus_message_get_no_reply(raw) == 0, let reply = dbus_message_new_error(raw, error.name.rawValue, error.message) else {
                return
            }
            send(reply)
        }
    }

    /// Replies to `raw` with the body `write` appends, or with `Failed` when it cannot.
    private func reply(to raw: OpaquePointer, writing write: (OpaquePointer) throws(BusError) -> Void) {
        guard dbus_message_get_no_reply(raw) == 0, let reply = dbus_message_new_method_return(raw) else { return }
        do throws(BusError) { try write(reply) } catch {
            dbus_message_unref(reply)
            self.reply(to: raw, with: .failure(BusError.failed("The service produced an invalid reply: \(error.message)")))
            return
        }
        send(reply)
    }

    /// Finds what answers `call` from its header alone, and reads the body of `raw` only for a
    /// handler that takes arguments of its type: a call nobody takes is refused unread.
    private func route(_ call: MessageHeader, _ raw: OpaquePointer) throws(BusError) -> MethodReply {
        guard let path = call.path, let member = call.member else { throw BusError.invalidArgs("Malformed call") }
        guard let interfaces = interfaces(at: path) else {
            if call.interface ?? "org.freedesktop.DBus.Introspectable" == InterfaceName.introspectable.rawValue,
                member == "Introspect", call.signature.isEmpty, path == .root || !children(of: path).isEmpty
            {
                return .now([.string(introspectionXML(interfaces: [], children: children(of: path)))])
            }
            throw BusError(.unknownObject, "No object at path \(path)")
        }
        switch call.interface {
        case InterfaceName.introspectable.rawValue?:
            try expect(call, member: "Introspect", signature: "")
            return .now([.string(introspectionXML(interfaces: interfaces, children: children(of: path)))])
        case InterfaceName.properties.rawValue?:
            return try handleProperties(call, raw, member: member, interfaces: interfaces)
        case InterfaceName.peer.rawValue?:
            return try handlePeer(call, member: member)
        case nil:
            guard let method = interfaces.lazy.compactMap({ $0.method(named: member) }).first else {
                throw BusError(.unknownMethod, "No method \(member) on object \(path)")
            }
            return try invoke(method, call, raw)
        case let name?:
            guard let interface = interfaces.first(where: { $0.name.rawValue == name }) else {
                throw BusError(.unknownInterface, "Object \(path) has no interface \(name)")
            }
            guard let method = interface.method(named: member) else {
                throw BusError(.unknownMethod, "Interface \(name) has no method \(member)")
            }
            return try invoke(method, call, raw)
        }
    }

    private func invoke(_ method: Method, _ call: MessageHeader, _ raw: OpaquePointer) throws(BusError) -> MethodReply {
        guard call.signature == method.inputSignature else {
            throw BusError.invalidArgs(
                "\(method.name) takes arguments of type '\(method.inputSignature)', got '\(call.signature)'")
        }
        guard let message = Message(call, readingAtMostLargestBody: raw) else {
            throw BusError.invalidArgs("\(method.name) takes at most \(Message.largestBody) values in its arguments")
        }
        return try method.handler(message)
    }

    private func expect(_ call: MessageHeader, member: String, signature: String) throws(BusError) {
        guard call.member == member else {
            throw BusError(.unknownMethod, "Interface \(call.interface ?? "") has no method \(call.member ?? "")")
        }
        guard call.signature == signature else {
            throw BusError.invalidArgs("\(member) takes arguments of type '\(signature)', got '\(call.signature)'")
        }
    }

    private func handlePeer(_ call: MessageHeader, member: String) throws(BusError) -> MethodReply {
        if member == "Ping" {
            try expect(call, member: "Ping", signature: "")
            return .now([])
        }
        try expect(call, member: "GetMachineId", signature: "")
        guard let raw = dbus_try_get_local_machine_id(nil) else { throw BusError.failed("No machine id") }
        defer { dbus_free(raw) }
        return .now([.string(String(cString: raw))])
    }

    /// A guarded property's value, read on the bus's executor as every getter is.
    private func value(of property: Property) -> Value { property.getter() }

    /// Get, GetAll and Set; Set reads the new value only once it is known to be of the property's type.
    private func handleProperties(_ call: MessageHeader, _ raw: OpaquePointer, member: String, interfaces: [Interface]) throws(BusError)
        -> MethodReply
    {
        func interface(_ name: String) throws(BusError) -> Interface {
            guard let found = interfaces.first(where: { $0.name.rawValue == name }) else {
                throw BusError(.unknownInterface, "Object \(call.path!) has no interface \(name)")
            }
            return found
        }
        func property(_ interfaceName: String, _ name: String) throws(BusError) -> Property {
            let candidates = interfaceName.isEmpty ? interfaces : [try interface(interfaceName)]
            guard let found = candidates.lazy.compactMap({ $0.property(named: name) }).first else {
                throw BusError(.unknownProperty, "No property \(name) on \(interfaceName.isEmpty ? "any interface" : interfaceName)")
            }
            return found
        }
        var arguments = ArgumentReader(raw)
        func nextString() throws(BusError) -> String { try String(dbusValue: arguments.next() ?? .string("")) }
        switch member {
        case "Get":
            try expect(call, member: "Get", signature: "ss")
            let target = try property(try nextString(), try nextString())
            guard let readGuard = target.readGuard else { return .now([.variant(target.getter())]) }
            let sender = call.sender
            return .later { () throws(BusError) in
                try await readGuard(sender)
                return [.variant(await self.value(of: target))]
            }
        case "GetAll":
            try expect(call, member: "GetAll", signature: "s")
            let name = try nextString()
            let properties = (name.isEmpty ? interfaces.flatMap(\.properties) : try interface(name).properties).filter { $0.readGuard == nil }
            let entries = properties.map { DictionaryEntry(key: .string($0.name.rawValue), value: .variant($0.getter())) }
            return .now([.dictionary(key: "s", value: "v", entries)])
        case "Set":
            try expect(call, member: "Set", signature: "ssv")
            let target = try property(try nextString(), try nextString())
            guard let setter = target.setter else { throw BusError(.propertyReadOnly, "Property \(target.name) is read-only") }
            let type = arguments.nextVariantContents() ?? ""
            guard type == target.signature.rawValue, case .variant(let value)? = arguments.next() else {
                throw BusError.invalidArgs("Property \(target.name) is of type '\(target.signature)', got '\(type)'")
            }
            return try setter(value, call.sender)
        default:
            throw BusError(.unknownMethod, "Interface org.freedesktop.DBus.Properties has no method \(member)")
        }
    }

    // MARK: The bus daemon

    /// Calls a method of the bus daemon itself (`org.freedesktop.DBus`).
    public func callDaemon(_ member: MemberName, _ arguments: [Value] = []) async throws(BusError) -> Message {
        try await call(
            MethodCall(
                destination: "org.freedesktop.DBus", path: ObjectPath(unchecked: "/org/freedesktop/DBus"),
                interface: "org.freedesktop.DBus", member: member, arguments: arguments))
    }

    /// Asks for a well-known name. Register objects first: calls may arrive the moment it is ours.
    public func requestName(_ name: BusName, allowReplacement: Bool = false, replaceExisting: Bool = false) async throws(BusError)
        -> NameRequestResult
    {
        var flags: UInt32 = 4  // DBUS_NAME_FLAG_DO_NOT_QUEUE
        if allowReplacement { flags |= 1 }
        if replaceExisting { flags |= 2 }
        let reply = try await callDaemon("RequestName", [.string(name.rawValue), .uint32(flags)])
        return NameRequestResult(rawValue: try reply.argument(0, as: UInt32.self)) ?? .exists
    }

    /// Gives up a well-known name, so that a successor (or an activation) can have it at once rather
    /// than when this connection closes.
    /// The corresponding bus method is `org.freedesktop.DBus.ReleaseName`.
    public func releaseName(_ name: BusName) async throws(BusError) {
        _ = try await callDaemon("ReleaseName", [.string(name.rawValue)])
    }

    /// The unique name owning `name`, or nil when nobody does.
    public func owner(of name: BusName) async throws(BusError) -> String? {
        do {
            return try await callDaemon("GetNameOwner", [.string(name.rawValue)]).argument(0, as: String.self)
        } catch  where error.name == .nameHasNoOwner {
            return nil
        }
    }

    /// The process id behind a connection, as the daemon knows it.
    public func processID(of name: String) async throws(BusError) -> UInt32 {
        try await callDaemon("GetConnectionUnixProcessID", [.string(name)]).argument(0)
    }
}
