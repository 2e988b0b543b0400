/// An argument of a method or signal, as introspection shows it.
public struct Argument: Sendable, Equatable {
    public let name: String
    public let signature: Signature
    public init(_ name: String, _ signature: Signature) {
        self.name = name
        self.signature = signature
    }
}

/// An introspection annotation such as `org.freedesktop.DBus.Property.EmitsChangedSignal`.
public struct Annotation: Sendable, Equatable {
    public let name: String
    public let value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What a method handler answers: a reply now, or work whose result is the reply.
public enum MethodReply: Sendable {
    case now([Value])
    /// The call is answered when `work` ends; other calls are handled meanwhile.
    case later(@Sendable () async throws(BusError) -> [Value])
    /// A reply of one dictionary, written into the message entry by entry as `entries` hands
    /// them to `add`: for a reply too large to build whole first (every object of a large subtree).
    case dictionary(
        key: Signature, value: Signature, entries: @Sendable (_ add: (DictionaryEntry) throws(BusError) -> Void) throws(BusError) -> Void)
}

/// A method an exported object answers. The handler runs on the bus thread, synchronously,
/// in the order the calls arrived, with arguments already checked against `inputs`.
public struct Method: Sendable {
    public let name: MemberName
    public let inputs: [Argument]
    public let outputs: [Argument]
    public let annotations: [Annotation]
    public let handler: @Sendable (Message) throws(BusError) -> MethodReply

    public init(
        _ name: MemberName, inputs: [Argument] = [], outputs: [Argument] = [], annotations: [Annotation] = [],
        handler: @escaping @Sendable (Message) throws(BusError) -> MethodReply
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.annotations = annotations
        self.handler = handler
    }

    var inputSignature: String { inputs.map(\.signature.rawValue).joined() }
}

/// How a property announces its changes (`org.freedesktop.DBus.Property.EmitsChangedSignal`).
public enum EmitsChangedSignal: String, Sendable {
    case `true`, invalidates, const, `false`
}

/// A property an exported object has. Getters and setters run on the bus thread.
public struct Property: Sendable {
    public enum Access: String, Sendable { case read, write, readwrite }

    public let name: MemberName
    public let signature: Signature
    public let emitsChanged: EmitsChangedSignal
    public let getter: @Sendable () -> Value
    /// Answers `Set` as a method handler does: at once, or `.later` for a value that takes waiting to accept; told
    /// the caller's unique name, for a setting only some callers may change.
    public let setter: (@Sendable (Value, _ sender: String?) throws(BusError) -> MethodReply)?
    /// Asked before `Get` answers, told the caller's unique name: for a value only some callers may read. `GetAll`
    /// leaves such a property out, as it cannot ask on each caller's behalf.
    public private(set) var readGuard: (@Sendable (_ sender: String?) async throws(BusError) -> Void)?

    public var access: Access { setter == nil ? .read : .readwrite }

    /// This property, read by `Get` only once `check` lets the caller through, and left out of `GetAll`.
    public func guardingReads(_ check: @escaping @Sendable (_ sender: String?) async throws(BusError) -> Void) -> Property {
        var guarded = self
        guarded.readGuard = check
        return guarded
    }

    public init(
        _ name: MemberName, _ signature: Signature, emitsChanged: EmitsChangedSignal = .true,
        getter: @escaping @Sendable () -> Value, setter: (@Sendable (Value) throws(BusError) -> Void)? = nil
    ) {
        var replying: (@Sendable (Value, String?) throws(BusError) -> MethodReply)?
        if let setter {
            replying = { value, _ throws(BusError) in
                try setter(value)
                return .now([])
            }
        }
        self.init(name, signature, emitsChanged: emitsChanged, getter: getter, replying: replying)
    }

    private init(
        _ name: MemberName, _ signature: Signature, emitsChanged: EmitsChangedSignal, getter: @escaping @Sendable () -> Value,
        replying setter: (@Sendable (Value, String?) throws(BusError) -> MethodReply)?
    ) {
        self.name = name
        self.signature = signature
        self.emitsChanged = emitsChanged
        self.getter = getter
        self.setter = setter
    }

    /// A property whose setter may answer `Set` later, as a method handler does: for a value that takes waiting
    /// to accept.
    public static func settable(
        _ name: MemberName, _ signature: Signature, emitsChanged: EmitsChangedSignal = .true, getter: @escaping @Sendable () -> Value,
        replyingSetter: @escaping @Sendable (Value) throws(BusError) -> MethodReply
    ) -> Property {
        Property(name, signature, emitsChanged: emitsChanged, getter: getter) { value, _ throws(BusError) in try replyingSetter(value) }
    }

    /// A property whose setter is told who sets it (the caller's unique name), and may answer later.
    public static func settable(
        _ name: MemberName, _ signature: Signature, emitsChanged: EmitsChangedSignal = .true, getter: @escaping @Sendable () -> Value,
        callerSetter: @escaping @Sendable (Value, _ sender: String?) throws(BusError) -> MethodReply
    ) -> Property {
        Property(name, signature, emitsChanged: emitsChanged, getter: getter, replying: callerSetter)
    }
}

/// A signal an interface declares.
public struct SignalDeclaration: Sendable {
    public let name: MemberName
    public let arguments: [Argument]
    public init(_ name: MemberName, _ arguments: [Argument] = []) {
        self.name = name
        self.arguments = arguments
    }
}

/// One interface of an exported object: the single definition that both the dispatcher and
/// the introspection data are made from.
public struct Interface: Sendable {
    public let name: InterfaceName
    public let methods: [Method]
    public let properties: [Property]
    public let signals: [SignalDeclaration]

    public init(_ name: InterfaceName, methods: [Method] = [], properties: [Property] = [], signals: [SignalDeclaration] = []) {
        self.name = name
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }

    func method(named name: String) -> Method? { methods.first { $0.name.rawValue == name } }
    func property(named name: String) -> Property? { properties.first { $0.name.rawValue == name } }
}
