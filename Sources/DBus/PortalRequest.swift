/// The XDG desktop portal's bus name and object, and the interfaces every portal's requests and sessions share.
public enum DesktopPortal {
    public static let name: BusName = "org.freedesktop.portal.Desktop"
    public static let path = ObjectPath("/org/freedesktop/portal/desktop")!
    public static let request: InterfaceName = "org.freedesktop.portal.Request"
    public static let session: InterfaceName = "org.freedesktop.portal.Session"

    /// A `u` property of the portal's `interface` (`version`, `AvailableDeviceTypes`).
    public static func property(
        _ property: String, of interface: InterfaceName, on bus: Bus, timeout: Duration
    ) async throws(BusError) -> UInt32 {
        let reply = try await bus.call(
            MethodCall(
                destination: name, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                arguments: [.string(interface.rawValue), .string(property)]),
            timeout: timeout)
        return try reply.argument(0, as: Variant.self).get(UInt32.self)
    }

    /// The session a `CreateSession` answered with: an object path, or a string holding one, as some portals send it.
    public static func sessionHandle(in results: [String: Variant]) -> ObjectPath? {
        guard let handle = results["session_handle"] else { return nil }
        if let path = try? handle.get(ObjectPath.self) { return path }
        return (try? handle.get(String.self)).flatMap(ObjectPath.init)
    }
}

/// Why a portal step did not succeed, before it is put in words for the user.
public enum PortalStepFailure: Error {
    /// The call itself failed: no portal, or it refused the arguments.
    case unreachable(BusError)
    /// No `Response` came within the bound.
    case unanswered
    /// `Response` 1 (the user cancelled) or 2 (refused otherwise).
    case refused(UInt32)
}

/// Calls a portal method that answers later, through the `Response` signal of a Request object.
///
/// The request's path is made predictable with `handle_token` and subscribed to before the call, so that a
/// response the portal sends at once is not missed.
public struct PortalRequest: Sendable {
    public let bus: Bus
    /// The portal interface whose methods are called (RemoteDesktop, GlobalShortcuts, …).
    public let interface: InterfaceName
    public let callTimeout: Duration

    public init(bus: Bus, interface: InterfaceName, callTimeout: Duration) {
        self.bus = bus
        self.interface = interface
        self.callTimeout = callTimeout
    }

    /// Calls `member` with `arguments` followed by the options (`handle_token` added) and waits for its response.
    /// - Returns: the response's results, when its code is 0.
    /// - Throws: `PortalStepFailure`. A request unanswered within `answerWithin` is closed (its dialog goes).
    public func call(
        _ member: MemberName, _ arguments: [Value], options: [String: Variant] = [:], answerWithin bound: Duration
    ) async throws(PortalStepFailure) -> [String: Variant] {
        let (code, results) = try await answer(to: member, arguments, options: options, answerWithin: bound)
        guard code == 0 else { throw .refused(code) }
        return results
    }

    /// `call`, answering the response's code with its results, whatever the code: some portals put results in a
    /// refusal (GNOME 48's `BindShortcuts` answers 2 with the shortcuts it bound).
    public func answer(
        to member: MemberName, _ arguments: [Value], options: [String: Variant] = [:], answerWithin bound: Duration
    ) async throws(PortalStepFailure) -> (code: UInt32, results: [String: Variant]) {
        let token = Self.makeToken()
        let handle = try Self.requestPath(sender: await bus.uniqueName, token: token)
        let responses: AsyncStream<Message>
        do {
            responses = try await bus.signals(
                matching: MatchRule(
                    sender: DesktopPortal.name, path: handle, interface: DesktopPortal.request, member: "Response",
                    signature: "ua{sv}"))
        } catch {
            throw .unreachable(error)
        }
        var withToken = options
        withToken["handle_token"] = Variant(token)
        do {
            _ = try await bus.call(
                MethodCall(
                    destination: DesktopPortal.name, path: DesktopPortal.path, interface: interface, member: member,
                    arguments: arguments + [withToken.dbusValue]),
                timeout: callTimeout)
        } catch {
            throw .unreachable(error)
        }
        guard let response = await Self.first(of: responses, within: bound) else {
            await close(handle, interface: DesktopPortal.request)
            throw .unanswered
        }
        let code = (try? response.argument(0, as: UInt32.self)) ?? 2
        return (code, (try? response.argument(1, as: [String: Variant].self)) ?? [:])
    }

    /// Calls `Close` on a request or a session, for what it is worth: one already gone is no matter.
    public func close(_ path: ObjectPath, interface: InterfaceName) async {
        _ = try? await bus.call(
            MethodCall(destination: DesktopPortal.name, path: path, interface: interface, member: "Close"), timeout: callTimeout)
    }

    /// The first message of `stream`, or nil when none comes within `bound` (or the stream ends, or the task is cancelled).
    private static func first(of stream: AsyncStream<Message>, within bound: Duration) async -> Message? {
        await withTaskGroup(of: Message?.self) { group in
            group.addTask {
                for await message in stream { return message }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: bound)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Where the portal puts the Request object of `token`: the sender's unique name without its `:`, dots made
    /// underscores (the portal's documented rule).
    public static func requestPath(sender: String, token: String) throws(PortalStepFailure) -> ObjectPath {
        let element = String(sender.drop(while: { $0 == ":" })).replacingDots()
        guard let path = ObjectPath("/org/freedesktop/portal/desktop/request/\(element)/\(token)") else {
            throw .unreachable(BusError.invalidArgs("No request path for sender \(sender)"))
        }
        return path
    }

    /// A token unique to this process's requests and sessions, valid as an object path element.
    public static func makeToken() -> String {
        "notula_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }
}

extension String {
    fileprivate func replacingDots() -> String {
        String(map { $0 == "." ? "_" : $0 })
    }
}
