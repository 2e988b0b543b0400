import FoundationEssentials
import Recording

/// How `notula status` prints the recorder: `recording 12.3`, or one JSON object a line for bars
/// and scripts, with the fields waybar's custom modules read (`text`, `tooltip`, `class`).
enum StatusFormat {
    case plain, json

    func line(_ status: RecorderStatus, at now: Int64) -> String {
        let tenths = RecorderStatus.tenths(status.elapsed(at: now))
        switch self {
        case .plain:
            return "\(status.state) \(tenths / 10).\(tenths % 10)"
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let fields = JSONFields(status, tenths: tenths)
            return String(decoding: (try? encoder.encode(fields)) ?? Data("{}".utf8), as: UTF8.self)
        }
    }

    /// Whether the feed prints a line at every second recorded, besides one at every change.
    var ticks: Bool { self == .json }
}

/// One line of the JSON feed.
private struct JSONFields: Encodable {
    let state: String
    let elapsed: Double
    let timerAnchor: Int64
    let locale: String
    /// What a bar shows: a symbol for the state and, once there is a recording, its time.
    let text: String
    let tooltip: String
    /// The state again, for a bar's style sheet (`#custom-notula.recording`).
    let `class`: String

    enum CodingKeys: String, CodingKey {
        case state, elapsed, timerAnchor = "timer_anchor", locale, text, tooltip, `class`
    }

    init(_ status: RecorderStatus, tenths: Int) {
        state = status.state
        elapsed = Double(tenths) / 10
        timerAnchor = status.timerAnchor
        locale = status.locale
        let clock = clockText(seconds: tenths / 10)
        switch status.state {
        case "recording":
            text = "⏺ \(clock)"
            tooltip = "Notula: recording, \(clock) (\(status.locale)); click to pause"
        case "paused":
            text = "⏸ \(clock)"
            tooltip = "Notula: paused at \(clock) (\(status.locale)); click to resume"
        case "processing":
            text = "⋯ \(clock)"
            tooltip = "Notula: transcribing \(clock) (\(status.locale))"
        case "idle":
            text = "⏺"
            tooltip = "Notula: ready (\(status.locale)); click to record"
        default:
            text = "⏺"
            tooltip = "Notula is not running; click to start it and record"
        }
        `class` = status.state
    }
}
