import DBus

// The D-Bus kit's builders and emitters, taking the contract's cases: the service's adapters name
// each member by its case, so a name the XML does not declare cannot be exported or emitted.
extension NotulaInterface {
    /// A method of this interface, answered by `handler`.
    public static func method(
        _ method: Method, inputs: [Argument] = [], outputs: [Argument] = [],
        handler: @escaping @Sendable (Message) throws(BusError) -> MethodReply
    ) -> DBus.Method {
        DBus.Method(method.rawValue, inputs: inputs, outputs: outputs, handler: handler)
    }

    /// A property of this interface, settable when it has a `setter`.
    public static func property(
        _ property: Property, _ signature: Signature, emitsChanged: EmitsChangedSignal = .true,
        getter: @escaping @Sendable () -> Value, setter: (@Sendable (Value) throws(BusError) -> Void)? = nil
    ) -> DBus.Property {
        DBus.Property(memberName(property), signature, emitsChanged: emitsChanged, getter: getter, setter: setter)
    }

    /// A property of this interface whose setter may answer `Set` later.
    public static func settableProperty(
        _ property: Property, _ signature: Signature, emitsChanged: EmitsChangedSignal = .true,
        getter: @escaping @Sendable () -> Value, replyingSetter: @escaping @Sendable (Value) throws(BusError) -> MethodReply
    ) -> DBus.Property {
        DBus.Property.settable(
            memberName(property), signature, emitsChanged: emitsChanged, getter: getter, replyingSetter: replyingSetter)
    }

    /// A signal of this interface.
    public static func signal(_ signal: Signal, _ arguments: [Argument] = []) -> SignalDeclaration {
        SignalDeclaration(signal.rawValue, arguments)
    }

    /// A property's name as the bus spells it (the contract keeps property names as strings, as clients read them).
    static func memberName(_ property: Property) -> MemberName {
        MemberName(stringLiteral: property.rawValue)
    }
}

extension Bus {
    /// `PropertiesChanged` for `names` of the contract's `interface` at `path`.
    public func emitPropertiesChanged<Interface: NotulaInterface>(
        path: ObjectPath, interface: Interface.Type, names: [Interface.Property]
    ) {
        emitPropertiesChanged(path: path, interface: Interface.name, names: names.map(Interface.memberName))
    }

    /// Emits the contract's `signal` of `interface` from `path`.
    /// - Throws: `InvalidArgs` when the arguments cannot be marshalled.
    public func emit<Interface: NotulaInterface>(
        path: ObjectPath, interface: Interface.Type, signal: Interface.Signal, arguments: [Value] = []
    ) throws(BusError) {
        try emit(path: path, interface: Interface.name, member: signal.rawValue, arguments: arguments)
    }
}
