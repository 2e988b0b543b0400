import CDBus

/// The header of a received message: enough to route a call or match a signal without reading
/// its body, which a peer can make as large as the bus allows.
public struct MessageHeader: Sendable {
    public enum Kind: Sendable, Equatable { case methodCall, methodReturn, error, signal }

    public let kind: Kind
    public let serial: UInt32
    public let replySerial: UInt32
    public let sender: String?
    public let destination: String?
    public let path: ObjectPath?
    public let interface: String?
    public let member: String?
    public let errorName: String?
    public let signature: String
    public let expectsReply: Bool

    init(_ raw: OpaquePointer) {
        func field(_ get: (OpaquePointer) -> UnsafePointer<CChar>?) -> String? { get(raw).map { String(cString: $0) } }
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: kind = .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: kind = .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: kind = .error
        default: kind = .signal
        }
        serial = dbus_message_get_serial(raw)
        replySerial = dbus_message_get_reply_serial(raw)
        sender = field(dbus_message_get_sender)
        destination = field(dbus_message_get_destination)
        path = field(dbus_message_get_path).map(ObjectPath.init(unchecked:))
        interface = field(dbus_message_get_interface)
        member = field(dbus_message_get_member)
        errorName = field(dbus_message_get_error_name)
        signature = field(dbus_message_get_signature) ?? ""
        expectsReply = dbus_message_get_no_reply(raw) == 0
    }
}

/// A message as received: its header and its decoded body, with no C pointer left in it.
@dynamicMemberLookup
public struct Message: Sendable {
    public typealias Kind = MessageHeader.Kind

    public let header: MessageHeader
    public let body: [Value]

    /// The most values a received call or signal is decoded into (arrays of numbers count as one):
    /// about 5 MB boxed, far more than any handler takes, far less than a 128 MiB message of strings.
    static let largestBody = 100_000

    /// Reads the whole message.
    init(_ raw: OpaquePointer) { self.init(MessageHeader(raw), reading: raw) }

    /// Reads the body of `raw`, whose header was read as `header`.
    init(_ header: MessageHeader, reading raw: OpaquePointer) {
        self.header = header
        body = readBody(of: raw)
    }

    /// Reads the body of a received call or signal, unless it would decode into more than `largestBody`
    /// values: nil then, counted without a value made.
    init?(_ header: MessageHeader, readingAtMostLargestBody raw: OpaquePointer) {
        guard !bodyHasMoreValues(than: Self.largestBody, raw) else { return nil }
        self.init(header, reading: raw)
    }

    public subscript<T>(dynamicMember field: KeyPath<MessageHeader, T>) -> T { header[keyPath: field] }

    /// Argument `index` of the body as `T`.
    /// - Throws: `InvalidArgs` when there is no such argument or it has another type.
    public func argument<T: DBusRepresentable>(_ index: Int, as type: T.Type = T.self) throws(BusError) -> T {
        guard body.indices.contains(index) else { throw BusError.invalidArgs("Missing argument \(index)") }
        return try T(dbusValue: body[index])
    }

    /// The error this message carries, when it is an error reply.
    var error: BusError? {
        guard header.kind == .error else { return nil }
        let text: String = if case .string(let s)? = body.first { s } else { "" }
        return BusError(ErrorName(header.errorName ?? "") ?? .failed, text)
    }
}

/// A method call to send.
public struct MethodCall: Sendable {
    public var destination: BusName?
    public var path: ObjectPath
    public var interface: InterfaceName?
    public var member: MemberName
    public var arguments: [Value]
    /// Whether the bus may start the destination service (D-Bus activation) to answer it.
    public var autoStart: Bool

    public init(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        arguments: [Value] = [], autoStart: Bool = true
    ) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
        self.autoStart = autoStart
    }

    func makeMessage() throws(BusError) -> OpaquePointer {
        let created: OpaquePointer? = path.rawValue.withCString { pathPointer in
            member.rawValue.withCString { memberPointer in
                withOptionalCString(destination?.rawValue) { destinationPointer in
                    withOptionalCString(interface?.rawValue) { interfacePointer in
                        dbus_message_new_method_call(destinationPointer, pathPointer, interfacePointer, memberPointer)
                    }
                }
            }
        }
        guard let message = created else { throw BusError(.noMemory, "Out of memory") }
        dbus_message_set_auto_start(message, autoStart ? 1 : 0)
        do { try appendBody(arguments, to: message) } catch {
            dbus_message_unref(message)
            throw error
        }
        return message
    }
}

func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

/// Which signals a subscription receives; the bus daemon filters by the same rule.
public struct MatchRule: Sendable, Hashable {
    /// A unique name, the bus daemon, or a well-known name: then only its current owner's signals match.
    public var sender: BusName?
    public var path: ObjectPath?
    public var interface: InterfaceName?
    public var member: MemberName?
    /// The first argument, when it is a string (as `NameOwnerChanged`'s name).
    public var arg0: String?
    /// The arguments' types, checked here (the daemon has no such rule): a signal of other types is
    /// dropped before its body is read.
    public var signature: Signature?

    public init(
        sender: BusName? = nil, path: ObjectPath? = nil, interface: InterfaceName? = nil, member: MemberName? = nil,
        arg0: String? = nil, signature: Signature? = nil
    ) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arg0 = arg0
        self.signature = signature
    }

    /// The bus daemon's `NameOwnerChanged` for `name`: its arguments are the name, the old owner and the new
    /// one (empty for none).
    public static func ownerChanges(of name: BusName) -> MatchRule {
        MatchRule(sender: .daemon, interface: .daemon, member: "NameOwnerChanged", arg0: name.rawValue, signature: "sss")
    }

    /// The rule in the bus daemon's syntax.
    public var ruleString: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender)'") }
        if let path { parts.append("path='\(path)'") }
        if let interface { parts.append("interface='\(interface)'") }
        if let member { parts.append("member='\(member)'") }
        if let arg0 { parts.append("arg0='\(arg0.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''"))'") }
        return parts.joined(separator: ",")
    }

    /// The well-known name whose owner alone may send the signals of this rule.
    var followedSender: BusName? {
        guard let sender, !sender.isUnique, sender != .daemon else { return nil }
        return sender
    }

    /// Client-side check on the header alone: the daemon also delivers unicast signals sent to us by anyone.
    /// - Parameters:
    ///   - owner: the current owner of `followedSender`, nil when it has none.
    ///   - firstString: the first argument, read only when `arg0` is asked and the signature starts with a string.
    func matches(_ signal: MessageHeader, owner: String?, firstString: () -> String?) -> Bool {
        guard signal.kind == .signal else { return false }
        if let sender {
            guard let expected = followedSender == nil ? sender.rawValue : owner, signal.sender == expected else { return false }
        }
        if let path, signal.path != path { return false }
        if let interface, signal.interface != interface.rawValue { return false }
        if let member, signal.member != member.rawValue { return false }
        if let signature, signal.signature != signature.rawValue { return false }
        if let arg0 {
            guard signal.signature.hasPrefix("s"), firstString() == arg0 else { return false }
        }
        return true
    }
}
