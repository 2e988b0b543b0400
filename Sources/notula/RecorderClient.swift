import DBus
import NotulaContract

/// The recorder object as the command line sees it.
struct RecorderClient {
    let bus: Bus

    func call(_ method: NotulaBus.Recorder.Method, _ arguments: [Value] = []) async throws(BusError) -> Message {
        try await bus.call(
            MethodCall(
                destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface,
                member: method.rawValue, arguments: arguments))
    }

    /// A pipe notulad hands over (`WatchText`, `OpenAudio`).
    func pipe(_ method: NotulaBus.Recorder.Method, _ arguments: [Value] = []) async throws(BusError) -> FileDescriptor {
        guard case .unixFD(let received)? = try await call(method, arguments).body.first else {
            throw BusError(.failed, "notulad answered \(method.rawValue) without a pipe")
        }
        return received
    }

    /// `ProcessTo(output)`: the recording becomes a memo whose text goes to `output`.
    /// - Returns: The memo's path.
    func processTo(_ output: String) async throws(BusError) -> String {
        let reply = try await bus.call(
            MethodCall(
                destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface,
                member: NotulaBus.Recorder.Method.processTo.rawValue, arguments: [.string(output)]))
        return try reply.argument(0, as: ObjectPath.self).rawValue
    }

    /// `Dictate("type", silenceSeconds)`: a recording typed where the user writes, ending by itself.
    func dictate(silenceSeconds: Double) async throws(BusError) {
        _ = try await bus.call(
            MethodCall(
                destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface,
                member: NotulaBus.Recorder.Method.dictate.rawValue, arguments: [.string("type"), .double(silenceSeconds)]))
    }

    /// The recorder's properties now.
    /// - Parameter autoStart: whether the bus may start notulad to answer (D-Bus activation).
    func status(autoStart: Bool = true) async throws(BusError) -> RecorderStatus {
        let reply = try await bus.call(
            MethodCall(
                destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: "org.freedesktop.DBus.Properties",
                member: "GetAll", arguments: [.string(NotulaBus.recorderInterface.rawValue)], autoStart: autoStart))
        return RecorderStatus(properties: try reply.argument(0, as: [String: Variant].self))
    }

    /// The status, or `not-running` without starting the service: a bar following it must not start notulad at login.
    func statusIfRunning() async -> RecorderStatus {
        (try? await status(autoStart: false)) ?? .notRunning
    }
}
