import DBus

/// Why a portal step did not succeed, before it is put in words for the user.
enum PortalStepFailure: Error {
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
struct PortalRequest {
    let bus: Bus
    let callTimeout: Duration

    /// Calls `member` with `arguments` followed by the options (`handle_token` added) and waits for its response.
    /// - Returns: the response's results, when its code is 0.
    /// - Throws: `PortalStepFailure`. A request unanswered within `answerWithin` is closed (its dialog goes).
    func call(
        _ member: MemberName, _ arguments: [Value], options: [String: Variant] = [:], answerWithin bound: Duration
    ) async throws(PortalStepFailure) -> [String: Variant] {
        let token = Self.makeToken()
        let handle = try Self.requestPath(sender: await bus.uniqueName, token: token)
        let responses: AsyncStream<Message>
        do {
            responses = try await bus.signals(
                matching: MatchRule(
                    sender: RemoteDesktopPortal.name, path: handle, interface: RemoteDesktopPortal.request, member: "Response",
                    signature: "ua{sv}"))
        } catch {
            throw .unreachable(error)
        }
        var withToken = options
        withToken["handle_token"] = Variant(token)
        do {
            _ = try await bus.call(
                MethodCall(
                    destination: RemoteDesktopPortal.name, path: RemoteDesktopPortal.path, interface: RemoteDesktopPortal.remoteDesktop,
                    member: member, arguments: arguments + [withToken.dbusValue]),
                timeout: callTimeout)
        } catch {
            throw .unreachable(error)
        }
        guard let response = await Self.first(of: responses, within: bound) else {
            await close(handle, interface: RemoteDesktopPortal.request)
            throw .unanswered
        }
        let code = (try? response.argument(0, as: UInt32.self)) ?? 2
        guard code == 0 else { throw .refused(code) }
        return (try? response.argument(1, as: [String: Variant].self)) ?? [:]
    }

    /// Calls `Close` on a request or a session, for what it is worth: one already gone is no matter.
    func close(_ path: ObjectPath, interface: InterfaceName) async {
        _ = try? await bus.call(
            MethodCall(destination: RemoteDesktopPortal.name, path: path, interface: interface, member: "Close"), timeout: callTimeout)
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
    static func requestPath(sender: String, token: String) throws(PortalStepFailure) -> ObjectPath {
        let element = String(sender.drop(while: { $0 == ":" })).replacingDots()
        guard let path = ObjectPath("/org/freedesktop/portal/desktop/request/\(element)/\(token)") else {
            throw .unreachable(BusError.invalidArgs("No request path for sender \(sender)"))
        }
        return path
    }

    /// A token unique to this process's requests and sessions, valid as an object path element.
    static func makeToken() -> String {
        "notula_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }
}

extension String {
    fileprivate func replacingDots() -> String {
        String(map { $0 == "." ? "_" : $0 })
    }
}
