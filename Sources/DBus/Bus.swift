import CDBus

#if canImport(Glibc)
    import Glibc
#endif

/// Which bus to connect to.
public enum BusType: Sendable {
    case session, system

    /// The address from the environment, as libdbus's own lookup finds it, but without
    /// autolaunching a bus: a missing session bus is an error to report, not to paper over.
    func address() throws(BusError) -> String {
        switch self {
        case .session:
            if let address = environmentValue("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty { return address }
            if let runtime = environmentValue("XDG_RUNTIME_DIR"), fileExists(runtime + "/bus") {
                return "unix:path=" + runtime + "/bus"
            }
            throw BusError(.noServer, "No session bus: DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not exist")
        case .system:
            if let address = environmentValue("DBUS_SYSTEM_BUS_ADDRESS"), !address.isEmpty { return address }
            return "unix:path=/var/run/dbus/system_bus_socket"
        }
    }
}

/// A connection to a message bus, owning every libdbus call made on it.
///
/// All its work runs on its own `BusExecutor` thread. Actors that must answer bus calls
/// synchronously (in arrival order, without a hop) can share that executor through
/// `unownedExecutor`.
public actor Bus {
    public let executor: BusExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    var connection: OpaquePointer?
    private var watches: [OpaquePointer] = []
    private var timeouts: [OpaquePointer: Int64] = [:]
    private var pendingCalls: [OpaquePointer: CheckedContinuation<Result<Message, BusError>, Never>] = [:]
    var objects: [ObjectPath: [Interface]] = [:]
    /// The folders whose children are looked up on demand (`exportSubtree`).
    var subtrees: [ObjectPath: ObjectSubtree] = [:]
    /// The paths exported as object managers (`exportObjectManager(at:)`).
    var managerRoots: Set<ObjectPath> = []
    var deferredReplies: [Int: OpaquePointer] = [:]
    /// While a method call is handled: the signals it caused, sent right after its reply, so that
    /// the caller is answered without waiting for the daemon to route them.
    var heldSignals: [OpaquePointer]?
    /// Between `holdCalls()` and `answerHeldCalls()`: the method calls that arrived, in order.
    var heldCalls: [OpaquePointer]?
    var nextToken = 0
    var subscriptions: [Int: Subscription] = [:]
    private var disconnectWaiters: [CheckedContinuation<Void, Never>] = []
    private var isDisconnected = false

    /// This connection's unique name (`:1.42`).
    public private(set) var uniqueName = ""

    /// Whether the executor's thread is this connection's alone, ending with it.
    private let ownsExecutor: Bool
    /// This connection's place in the executor's turn.
    private var turnToken: Int?
    /// The watches polled in the turn under way, in the order of their descriptors.
    private var polledWatches: [OpaquePointer] = []

    private init(executor: BusExecutor, ownsExecutor: Bool) {
        self.executor = executor
        self.ownsExecutor = ownsExecutor
    }

    /// Connects and registers with the bus; on the thread of `other` when given.
    /// - Throws: `BusError` with libdbus's error name and message when the bus cannot be reached.
    public static func connect(_ type: BusType, sharingThreadOf other: Bus? = nil) async throws(BusError) -> Bus {
        try await connect(address: try type.address(), sharingThreadOf: other)
    }

    /// Connects to the bus at `address` and registers with it. A connection on the thread of `other` is another
    /// name on the bus whose objects answer only calls addressed to it, while actors of either connection still call
    /// each other synchronously.
    /// The corresponding C functions are `dbus_connection_open_private` and `dbus_bus_register`.
    public static func connect(address: String, sharingThreadOf other: Bus? = nil) async throws(BusError) -> Bus {
        let bus = other.map { Bus(executor: $0.executor, ownsExecutor: false) } ?? Bus(executor: BusExecutor(), ownsExecutor: true)
        try await bus.open(address)
        return bus
    }

    private func open(_ address: String) throws(BusError) {
        var error = DBusError()
        dbus_error_init(&error)
        guard let opened = dbus_connection_open_private(address, &error) else { throw takeError(&error) }
        dbus_connection_set_exit_on_disconnect(opened, 0)
        guard dbus_bus_register(opened, &error) != 0 else {
            dbus_connection_close(opened)
            dbus_connection_unref(opened)
            throw takeError(&error)
        }
        connection = opened
        uniqueName = String(cString: dbus_bus_get_unique_name(opened))
        let context = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(
            opened,
            { watch, data in
                Bus.callback(data, watch) { bus, watch in bus.watches.append(watch) }; return 1
            },
            { watch, data in Bus.callback(data, watch) { bus, watch in bus.watches.removeAll { $0 == watch } } },
            { _, _ in },
            context, nil)
        dbus_connection_set_timeout_functions(
            opened,
            { timeout, data in
                Bus.callback(data, timeout) { bus, timeout in bus.armTimeout(timeout) }; return 1
            },
            { timeout, data in Bus.callback(data, timeout) { bus, timeout in bus.timeouts[timeout] = nil } },
            { timeout, data in Bus.callback(data, timeout) { bus, timeout in bus.armTimeout(timeout) } },
            context, nil)
        // New data read on the bus thread is dispatched by the turn that read it; only another thread's must wake the poll.
        dbus_connection_set_dispatch_status_function(
            opened,
            { _, _, data in
                let executor = Bus.from(data).executor
                if !executor.isCurrentThread { executor.wake() }
            }, context, nil)
        dbus_connection_add_filter(
            opened,
            { _, message, data in Bus.callback(data, message) { bus, message in bus.handleIncoming(message) } },
            context, nil)
        turnToken = executor.addTurn(
            ConnectionTurn(
                prepare: { [weak self] in self?.assumeIsolated { $0.prepareTurn() } ?? ([], -1) },
                finish: { [weak self] polled in self?.assumeIsolated { $0.finishTurn(polled) } }))
    }

    // A bus dropped without close() leaves no connection to poll: it leaves the turn, and a thread of its own ends
    // instead of spinning on.
    deinit {
        if let turnToken { executor.removeTurn(turnToken) }
        if ownsExecutor { executor.stop() }
    }

    fileprivate static func from(_ data: UnsafeMutableRawPointer?) -> Bus {
        Unmanaged<Bus>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Runs a libdbus callback isolated to the bus: libdbus calls back on the bus thread,
    /// from inside a call the bus made. The handle travels as an address, being thread-bound anyway.
    fileprivate static func callback<R: Sendable>(
        _ data: UnsafeMutableRawPointer?, _ handle: OpaquePointer?, _ body: @Sendable (isolated Bus, OpaquePointer) -> R
    ) -> R {
        let address = UInt(bitPattern: handle)
        return from(data).assumeIsolated { bus in body(bus, OpaquePointer(bitPattern: address)!) }
    }

    private func takeError(_ error: inout DBusError) -> BusError {
        defer { dbus_error_free(&error) }
        let name = error.name.map { String(cString: $0) } ?? ErrorName.failed.rawValue
        let message = error.message.map { String(cString: $0) } ?? "Unknown error"
        return BusError(ErrorName(name) ?? .failed, message)
    }

    private func armTimeout(_ timeout: OpaquePointer) {
        timeouts[timeout] = monotonicMilliseconds() + Int64(dbus_timeout_get_interval(timeout))
    }

    // MARK: The main-loop turn

    /// Dispatches what is queued, then names the enabled watches' descriptors and the nearest enabled timeout
    /// for the executor's poll.
    private func prepareTurn() -> (descriptors: [pollfd], wait: Int32) {
        dispatchAll()
        var descriptors: [pollfd] = []
        polledWatches = []
        for watch in watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            var events: Int16 = 0
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
            descriptors.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
            polledWatches.append(watch)
        }
        var wait: Int32 = -1
        let now = monotonicMilliseconds()
        for (timeout, deadline) in timeouts where dbus_timeout_get_enabled(timeout) != 0 {
            let remaining = Int32(clamping: max(0, deadline - now))
            wait = wait < 0 ? remaining : min(wait, remaining)
        }
        return (descriptors, wait)
    }

    /// Hands libdbus what the poll found on the watches `prepareTurn` named, runs the timeouts that are due,
    /// and dispatches what arrived.
    private func finishTurn(_ polled: [pollfd]) {
        for (watch, descriptor) in zip(polledWatches, polled) {
            let revents = Int32(descriptor.revents)
            guard revents != 0, watches.contains(watch) else { continue }
            var flags: UInt32 = 0
            if revents & POLLIN != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
            if revents & POLLOUT != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
            if revents & POLLERR != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
            if revents & POLLHUP != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
            dbus_watch_handle(watch, flags)
        }
        polledWatches = []
        let later = monotonicMilliseconds()
        for (timeout, deadline) in timeouts where deadline <= later && dbus_timeout_get_enabled(timeout) != 0 {
            guard timeouts[timeout] != nil else { continue }
            armTimeout(timeout)
            dbus_timeout_handle(timeout)
        }
        dispatchAll()
    }

    private func dispatchAll() {
        guard let connection else { return }
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    private func handleIncoming(_ raw: OpaquePointer) -> DBusHandlerResult {
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL:
            handleMethodCall(raw)
            return DBUS_HANDLER_RESULT_HANDLED
        case DBUS_MESSAGE_TYPE_SIGNAL:
            deliverSignal(raw)
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    /// Hands a signal to the subscriptions that want it, matched on its header; one nobody wants is
    /// dropped without reading its body.
    private func deliverSignal(_ raw: OpaquePointer) {
        let header = MessageHeader(raw)
        if header.interface == "org.freedesktop.DBus.Local", header.member == "Disconnected" {
            isDisconnected = true
            for waiter in disconnectWaiters { waiter.resume() }
            disconnectWaiters.removeAll()
        }
        noteOwnerChange(header, raw)
        var firstArgument: String??
        func firstString() -> String? {
            if let firstArgument { return firstArgument }
            var reader = ArgumentReader(raw)
            let read = reader.nextString()
            firstArgument = read
            return read
        }
        let takers = subscriptions.values.filter { $0.wants(header, firstString: firstString) }
        guard !takers.isEmpty, let message = Message(header, readingAtMostLargestBody: raw) else { return }
        for subscription in takers { subscription.continuation.yield(message) }
    }

    // MARK: Sending

    /// Sends `message` and drops our reference.
    func send(_ message: OpaquePointer) {
        defer { dbus_message_unref(message) }
        guard let connection else { return }
        dbus_connection_send(connection, message, nil)
    }

    /// Calls a method and waits for its reply.
    /// - Throws: the error the peer replied with, `NoReply` after `timeout`, or `InvalidArgs` for bad arguments.
    /// The corresponding C function is `dbus_connection_send_with_reply`.
    public func call(_ call: MethodCall, timeout: Duration = .seconds(25)) async throws(BusError) -> Message {
        guard let connection else { throw BusError(.disconnected, "Not connected to the bus") }
        let message = try call.makeMessage()
        defer { dbus_message_unref(message) }
        var pending: OpaquePointer?
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard dbus_connection_send_with_reply(connection, message, &pending, milliseconds) != 0, let pending else {
            throw BusError(.disconnected, "The bus connection is closed")
        }
        let result = await withCheckedContinuation { continuation in
            pendingCalls[pending] = continuation
            dbus_pending_call_set_notify(
                pending,
                { pending, data in Bus.callback(data, pending) { bus, pending in bus.complete(pending) } },
                Unmanaged.passUnretained(self).toOpaque(), nil)
        }
        let reply = try result.get()
        if let error = reply.error { throw error }
        return reply
    }

    private func complete(_ pending: OpaquePointer) {
        guard let continuation = pendingCalls.removeValue(forKey: pending) else { return }
        defer { dbus_pending_call_unref(pending) }
        guard let reply = dbus_pending_call_steal_reply(pending) else {
            continuation.resume(returning: .failure(BusError(.noReply, "No reply")))
            return
        }
        defer { dbus_message_unref(reply) }
        continuation.resume(returning: .success(Message(reply)))
    }

    /// Emits a signal from `path`: to every subscriber, or only to `destination` (a unicast signal).
    /// - Throws: `InvalidArgs` when the arguments cannot be marshalled.
    public func emit(
        path: ObjectPath, interface: InterfaceName, member: MemberName, arguments: [Value] = [], destination: BusName? = nil
    ) throws(BusError) {
        guard let signal = dbus_message_new_signal(path.rawValue, interface.rawValue, member.rawValue) else {
            throw BusError(.noMemory, "Out of memory")
        }
        if let destination, dbus_message_set_destination(signal, destination.rawValue) == 0 {
            dbus_message_unref(signal)
            throw BusError(.noMemory, "Out of memory")
        }
        do { try appendBody(arguments, to: signal) } catch {
            dbus_message_unref(signal)
            throw error
        }
        if heldSignals != nil { heldSignals?.append(signal) } else { send(signal) }
    }

    // MARK: Signal subscriptions

    /// Signals matching any of `rules`, in the order they arrived, from the moment this returns
    /// (the matches are in place at the daemon). The subscription ends when the stream's consumer stops.
    /// A rule naming a well-known sender takes only the signals of that name's owner: the owner is asked
    /// first, then followed as it changes.
    public func signals(matching rules: MatchRule...) async throws(BusError) -> AsyncStream<Message> {
        let (stream, continuation) = AsyncStream.makeStream(of: Message.self)
        let token = takeToken()
        subscriptions[token] = Subscription(rules: rules, continuation: continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(token) }
        }
        do {
            try await followOwners(for: token)
            for rule in rules { _ = try await callDaemon("AddMatch", [.string(rule.ruleString)]) }
        } catch {
            await unsubscribe(token)
            throw error
        }
        return stream
    }

    private func unsubscribe(_ token: Int) async {
        guard let subscription = subscriptions.removeValue(forKey: token) else { return }
        for rule in subscription.rules + subscription.ownerRules {
            _ = try? await callDaemon("RemoveMatch", [.string(rule.ruleString)])
        }
    }

    func takeToken() -> Int {
        nextToken += 1
        return nextToken
    }

    /// Returns when the connection to the bus is lost.
    public func waitUntilDisconnected() async {
        if isDisconnected { return }
        await withCheckedContinuation { disconnectWaiters.append($0) }
    }

    /// Closes the connection and ends its thread; pending calls fail and subscriptions end.
    public func close() {
        guard let connection else { return }
        dbus_connection_close(connection)
        dispatchAll()
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(connection, nil, nil, nil)
        for (pending, continuation) in pendingCalls {
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
            continuation.resume(returning: .failure(BusError(.disconnected, "The bus connection was closed")))
        }
        pendingCalls.removeAll()
        for subscription in subscriptions.values { subscription.continuation.finish() }
        subscriptions.removeAll()
        for waiter in disconnectWaiters { waiter.resume() }
        disconnectWaiters.removeAll()
        isDisconnected = true
        dbus_connection_unref(connection)
        self.connection = nil
        if let turnToken { executor.removeTurn(turnToken) }
        turnToken = nil
        if ownsExecutor { executor.stop() }
    }
}
