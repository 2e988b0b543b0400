import DBus
import Dispatch
import NotulaContract

#if canImport(Glibc)
    import Glibc
#endif

/// `notula memos play` at a terminal: space pauses and resumes, ← and → go back and on 5 s, and one line shows the
/// position and the length, read from the memo's `Position` four times a second (it sends no signal).
/// The terminal is put back as it was when the playback ends, however it ends.
final class PlaybackKeys {
    private let saved: termios
    private let keys: any DispatchSourceRead
    private let line: any DispatchSourceTimer

    /// Keys read from the terminal on stdin, when there is one; nil otherwise (a script's pipe).
    static func start(on bus: Bus, memo: ObjectPath, length: Double) -> PlaybackKeys? {
        var saved = termios()
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var keyByKey = saved
        keyByKey.c_lflag &= ~tcflag_t(ICANON | ECHO)
        guard tcsetattr(STDIN_FILENO, TCSANOW, &keyByKey) == 0 else { return nil }
        return PlaybackKeys(bus: bus, memo: memo, length: length, saved: saved)
    }

    private init(bus: Bus, memo: ObjectPath, length: Double, saved: termios) {
        self.saved = saved
        let steering = Steering(bus: bus, memo: memo, length: length)
        keys = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .global())
        line = DispatchSource.makeTimerSource(queue: .global())
        keys.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 16)
            let count = read(STDIN_FILENO, &bytes, bytes.count)
            guard count > 0 else { return }
            let pressed = Array(bytes[..<count])
            Task {
                await steering.act(on: pressed)
                await steering.show()
            }
        }
        line.setEventHandler { Task { await steering.show() } }
        line.schedule(deadline: .now(), repeating: .milliseconds(250))
        keys.resume()
        line.resume()
    }

    /// Puts the terminal back and ends the line.
    func end() {
        keys.cancel()
        line.cancel()
        var saved = saved
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        print("")
    }
}

/// What the keys do and the line shows, over the bus.
private struct Steering: Sendable {
    private static let step = 5.0
    let bus: Bus
    let memo: ObjectPath
    let length: Double

    func act(on pressed: [UInt8]) async {
        switch pressed {
        case [0x20]:
            let paused = (try? await libraryProperty(.playbackState)) == .string("paused")
            _ = try? await call(paused ? .resume : .pause)
        case [0x1b, 0x5b, 0x43], [0x1b, 0x5b, 0x44]:
            let forward = pressed.last == 0x43
            let position = await position()
            _ = try? await call(.seek, [.double(max(0, position + (forward ? Self.step : -Self.step)))])
        default: return
        }
    }

    func show() async {
        let paused = (try? await libraryProperty(.playbackState)) == .string("paused")
        let text = "\r\(paused ? "paused " : "playing") \(MemoTable.length(await position())) / \(MemoTable.length(length))"
        let bytes = Array((text + "  (space: pause, ←/→: 5 s)").utf8)
        _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }

    private func position() async -> Double {
        guard case .double(let seconds)? = try? await property(memo, NotulaBus.memoInterface, NotulaBus.Memo.Property.position.rawValue)
        else { return 0 }
        return seconds
    }

    private func libraryProperty(_ name: NotulaBus.Library.Property) async throws(BusError) -> Value {
        try await property(NotulaBus.libraryPath, NotulaBus.libraryInterface, name.rawValue)
    }

    private func property(_ path: ObjectPath, _ interface: InterfaceName, _ name: String) async throws(BusError) -> Value {
        let reply = try await bus.call(
            MethodCall(
                destination: NotulaBus.name, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                arguments: [.string(interface.rawValue), .string(name)]))
        return try reply.argument(0, as: Variant.self).value
    }

    private func call(_ method: NotulaBus.Memo.Method, _ arguments: [Value] = []) async throws(BusError) -> Message {
        try await bus.call(
            MethodCall(
                destination: NotulaBus.name, path: memo, interface: NotulaBus.memoInterface, member: method.rawValue, arguments: arguments))
    }
}
