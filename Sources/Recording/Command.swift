/// Who hears how a command ended.
public enum CommandCaller: Sendable, Equatable {
    /// A method call, whose reply is the outcome: it waits for the input to open where Start does.
    case waiting
    /// A click on a panel or a notification, a media key: nobody waits for a reply, so a failure is
    /// reported (`Reporting.failed`: the `Failed` signal and the error banner), once.
    case nobody
}

/// What a command did, for its caller.
public struct CommandOutcome: Sendable {
    /// The input's opening, which a waiting caller of Start (or of Resume after a loss) waits for.
    public let confirmation: Confirmation
    /// The recording Process handed on, which becomes this memo; the one Stop ended (nil: there was none).
    public let memo: RecordingID?
    /// How Stop's recording released the input, once it did; `.released` at once for every other command.
    public let release: PendingRelease

    init(confirmation: Confirmation = .immediate, memo: RecordingID? = nil, release: PendingRelease = .none) {
        self.confirmation = confirmation
        self.memo = memo
        self.release = release
    }

    static let done = CommandOutcome()
}

// Every surface — the bus methods, the tray, the media player, the notifications' buttons, the shortcuts, the
// silence ending — sends its commands through `perform`, so that a failure is told the same way wherever the
// command came from, and the tests drive the entry the product does.
extension Recorder {
    /// Runs the transition of `action`.
    /// - Throws: a refusal (`invalidState`: the surface offered what the state no longer allows) to
    ///   any caller; every other failure only to a caller that waits — for nobody, it is reported.
    @discardableResult
    public func perform(_ action: RecordingAction, for caller: CommandCaller) throws(RecordingError) -> CommandOutcome {
        do throws(RecordingError) {
            return try transition(action, for: caller)
        } catch {
            if case .invalidState = error { throw error }
            guard caller == .nobody else { throw error }
            reporter.failed(error, locale: failureLocale)
            return .done
        }
    }

    private func transition(_ action: RecordingAction, for caller: CommandCaller) throws(RecordingError) -> CommandOutcome {
        switch action {
        case .toggle: return CommandOutcome(confirmation: try toggle(for: caller))
        case .start: return CommandOutcome(confirmation: try start(for: caller))
        case .pause: try pause()
        case .resume: return CommandOutcome(confirmation: try resume(for: caller))
        case .process: return CommandOutcome(memo: try process())
        case .discard: try discard()
        case .stop:
            guard let stopped = stop() else { return .done }
            return CommandOutcome(memo: stopped, release: PendingRelease { await self.release(of: stopped) })
        }
        return .done
    }
}
