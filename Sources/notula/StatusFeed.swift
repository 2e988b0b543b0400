import DBus
import NotulaContract

#if canImport(Glibc)
    import Glibc
#endif

/// `notula status --follow`: a line now, one at every `PropertiesChanged` of the recorder and every
/// change of owner, and, in formats that tick, one at every second recorded — counted here from
/// `TimerAnchor`, never by asking the service.
struct StatusFeed {
    let recorder: RecorderClient
    let format: StatusFormat

    private enum Input {
        case message(Message)
        case tick
    }

    func run() async throws(BusError) -> Never {
        let bus = recorder.bus
        let changes = try await bus.signals(
            matching: MatchRule(
                sender: NotulaBus.name, path: NotulaBus.recorderPath, interface: "org.freedesktop.DBus.Properties",
                member: "PropertiesChanged"),
            MatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                arg0: NotulaBus.name.rawValue))
        let (inputs, input) = AsyncStream.makeStream(of: Input.self)
        Task {
            for await change in changes { input.yield(.message(change)) }
            input.finish()
        }
        var status = await recorder.statusIfRunning()
        var ticker = startTicking(status, into: input)
        var shown = show(status, after: nil)
        for await next in inputs {
            if case .message(let message) = next {
                status = await updated(status, by: message)
                ticker?.cancel()
                ticker = startTicking(status, into: input)
            }
            shown = show(status, after: shown)
        }
        throw BusError(.disconnected, "Lost the connection to the session bus")
    }

    private func updated(_ status: RecorderStatus, by message: Message) async -> RecorderStatus {
        guard message.member != "NameOwnerChanged" else {
            let owner = (try? message.argument(2, as: String.self)) ?? ""
            return owner.isEmpty ? .notRunning : await recorder.statusIfRunning()
        }
        var updated = status
        if let changed = try? message.argument(1, as: [String: Variant].self) { updated.apply(changed) }
        return updated
    }

    /// A tick at every whole second recorded, while the time counts and the format shows it.
    private func startTicking(_ status: RecorderStatus, into input: AsyncStream<Input>.Continuation) -> Task<Void, Never>? {
        guard format.ticks, status.isCounting else { return nil }
        return Task {
            while !Task.isCancelled {
                // A millisecond past the second, so that the line shows the new second.
                let wait = status.untilNextSecond(from: monotonicMicroseconds()) + 1000
                do { try await Task.sleep(for: .microseconds(wait)) } catch { return }
                input.yield(.tick)
            }
        }
    }

    /// Prints the line for `status` unless it is the line printed last (`shown`): a change the
    /// format does not show (the timer's anchor set once the microphone is open, in the plain
    /// format) is no change to its reader. Returns the line now shown.
    private func show(_ status: RecorderStatus, after shown: String?) -> String {
        let line = format.line(status, at: monotonicMicroseconds())
        guard line != shown else { return line }
        print(line)
        fflush(nil)
        return line
    }
}
