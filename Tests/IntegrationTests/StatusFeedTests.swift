import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

private let notula = binaryDirectory.appendingPathComponent("notula").path

/// One line of the JSON feed, read as a bar reads it: by the names of its fields.
private struct StatusLine: CustomStringConvertible {
    let fields: [String: Any]

    init(_ line: String) throws {
        fields = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
    }

    var state: String? { fields["state"] as? String }
    var elapsed: Double? { (fields["elapsed"] as? NSNumber)?.doubleValue }
    var timerAnchor: Int64? { (fields["timer_anchor"] as? NSNumber)?.int64Value }
    var locale: String? { fields["locale"] as? String }
    var text: String { fields["text"] as? String ?? "" }
    var tooltip: String? { fields["tooltip"] as? String }
    var `class`: String? { fields["class"] as? String }
    var description: String { "\(fields)" }
}

@Suite("notula status --json for bars and scripts", .serialized)
struct StatusFeedTests {
    @Test func oneShotJSON() async throws {
        let service = try await ServiceUnderTest.start()
        let result = try run(notula, ["status", "--json"], environment: service.environment)
        let line = try StatusLine(result.output.trimmingCharacters(in: .newlines))
        #expect(line.state == "idle" && line.class == "idle" && line.elapsed == 0 && line.timerAnchor == 0)
        guard case .string(let locale) = try await service.property(.locale) else { throw MissingInterface(name: "Locale") }
        #expect(line.locale == locale)
    }

    @Test("--follow --json: a line per change and one per second recorded, from TimerAnchor")
    func followFollowsTheStates() async throws {
        let service = try await ServiceUnderTest.start()
        let follower = try RunningCommand(notula, ["status", "--follow", "--json"], environment: service.environment)
        func next() throws -> StatusLine { try StatusLine(try follower.nextLine()) }

        #expect(try next().state == "idle")
        try await service.recorder(.start)
        let anchor = try await service.runningTimerAnchor()
        // Until the first samples arrive the time does not count: a line with no anchor may come first.
        var started = try next()
        if started.state == "recording" && started.timerAnchor == 0 { started = try next() }
        #expect(started.state == "recording" && started.class == "recording" && started.timerAnchor == anchor)
        #expect(started.text.hasSuffix("0:00") && started.tooltip?.isEmpty == false && started.locale?.isEmpty == false)
        // The ticks: whole seconds counted on this side from the anchor, with no traffic from the service.
        let first = try next()
        let second = try next()
        #expect(first.state == "recording" && first.elapsed == 1.0 && first.text.hasSuffix("0:01"), "\(first)")
        #expect(second.elapsed == 2.0 && second.timerAnchor == anchor, "\(second)")
        try await service.recorder(.pause)
        var paused = try next()
        while paused.state == "recording" { paused = try next() }
        #expect(paused.state == "paused" && paused.timerAnchor == 0 && (paused.elapsed ?? 0) >= 2.0 && paused.text.hasPrefix("⏸"))
        try await service.recorder(.discard)
        #expect(try next().state == "idle")
        _ = service.stop()
        let gone = try next()
        #expect(gone.state == "not-running" && gone.class == "not-running")
    }
}
