import DBus
import NotulaContract

/// What the recorder tells every client, in order: a change of its state, or a `Failed` signal.
public enum RecorderEvent: Equatable, Sendable, CustomStringConvertible {
    /// `PropertiesChanged` with State (and PauseReason, "" unless paused).
    case state(String, reason: String)
    /// `Failed(error_name, message)`.
    case failed(String, message: String)

    public init?(_ message: Message) {
        if message.isSignal(.failed), let name = try? message.argument(0, as: String.self) {
            self = .failed(name, message: (try? message.argument(1, as: String.self)) ?? "")
        } else if let changed = try? message.argument(1, as: [String: Variant].self), let state = changed["State"],
            let name = try? state.get(String.self)
        {
            self = .state(name, reason: (try? changed["PauseReason"]?.get(String.self)) ?? "")
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .state(let state, let reason): reason.isEmpty ? state : "\(state) (\(reason))"
        case .failed(let name, let message): "Failed \(name): \(message)"
        }
    }
}

extension AsyncStream<Message>.Iterator {
    /// The recorder's events up to and including the first that `last` accepts.
    public mutating func events(until last: (RecorderEvent) -> Bool) async -> [RecorderEvent] {
        var seen: [RecorderEvent] = []
        while let message = await next() {
            guard let event = RecorderEvent(message) else { continue }
            seen.append(event)
            if last(event) { break }
        }
        return seen
    }

    /// The recorder's events up to and including `last`.
    public mutating func events(until last: RecorderEvent) async -> [RecorderEvent] {
        await events { $0 == last }
    }
}
