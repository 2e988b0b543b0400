import Synchronization

/// The clipboard of a Wayland compositor with the data-control protocol (sway and other wlroots compositors, KWin;
/// not GNOME's): read from the selection's offer, and taken with a source Notula serves from memory, every type of an
/// offer at once and a dictation with the password manager's hint, so that clipboard managers keep it out of their
/// histories. Notula serves what it put on the clipboard for as long as notulad runs, or until something else is
/// copied.
public struct DataControlClipboard: ClipboardOwner {
    private let socket: String

    /// The compositor's socket: `WAYLAND_DISPLAY`, under `XDG_RUNTIME_DIR` where it is a name; nil without one.
    public init?(environment: [String: String]) {
        guard let display = environment["WAYLAND_DISPLAY"], !display.isEmpty else { return nil }
        if display.hasPrefix("/") {
            socket = display
        } else {
            guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
            socket = runtime + "/" + display
        }
    }

    /// How long the compositor may take to answer a request: it answers within milliseconds.
    static let answerTime = Duration.seconds(2)

    public func types() async -> [String] {
        await connection().perform(within: Self.answerTime, fallback: []) { state, answer in
            state.syncTwice { answer(state.selectionTypes) }
        }
    }

    public func read(_ type: String, limit: Int, timeLimit: Duration) async -> [UInt8]? {
        let start = ContinuousClock.now
        let pipe = await connection().perform(within: timeLimit, fallback: nil) { state, answer in
            state.syncTwice { answer(state.receive(type)) }
        }
        guard let pipe else { return nil }
        return await SelectionPipe.read(pipe, limit: limit, within: timeLimit - (ContinuousClock.now - start))
    }

    public func take(_ offer: ClipboardOffer, timeLimit: Duration) async throws(DeliveryError) -> any ClipboardHolding {
        let taken: Result<SelectionHolding, DeliveryError> = await connection().perform(
            within: timeLimit, fallback: .failure(DeliveryError("The compositor did not answer within \(timeLimit.inSeconds)."))
        ) { state, answer in
            state.sync { _ in
                guard state.hasDevice, let holding = state.take(offer) else {
                    return answer(.failure(DeliveryError("The compositor offers no clipboard to programs (no data-control protocol).")))
                }
                // Taken once the compositor has handled the request.
                state.sync { _ in answer(.success(holding)) }
            }
        }
        return try taken.get()
    }

    /// The connection to this socket: one for notulad's life, made again where the last one ended.
    private func connection() -> DataControlConnection {
        Self.connections.withLock { connections in
            if let connection = connections[socket], !connection.isOver { return connection }
            let connection = DataControlConnection(socket: socket)
            connections[socket] = connection
            return connection
        }
    }

    private static let connections = Mutex<[String: DataControlConnection]>([:])
}

extension DataControlState {
    /// Runs `then` once the compositor has answered twice: on a new connection the first answer brings the globals,
    /// whose binding asks for the device, and only the second the device's selection. With one, the first paste after
    /// start read an empty clipboard and put nothing back (seen in the fresh clone's run).
    fileprivate func syncTwice(_ then: @escaping () -> Void) {
        sync { _ in self.sync { _ in then() } }
    }
}
