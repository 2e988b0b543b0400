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
    /// The recording Process handed on, which becomes this memo.
    public let memo: RecordingID?

    static let done = CommandOutcome(confirmation: .immediate, memo: nil)
}

// Every surface — the bus methods, the tray, the media player, the notifications' buttons — sends its
// commands through `perform`, so that a failure is told the same way wherever the command came from.
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
        case .toggle: return CommandOutcome(confirmation: try toggle(for: caller), memo: nil)
        case .start: return CommandOutcome(confirmation: try start(for: caller), memo: nil)
        case .pause: try pause()
        case .resume: return CommandOutcome(confirmation: try resume(for: caller), memo: nil)
        case .process: return CommandOutcome(confirmation: .immediate, memo: try process())
        case .discard: try discard()
        }
        return .done
    }
}
