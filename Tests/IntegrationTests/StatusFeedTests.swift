import DBus
import Foundation
import NotulaTestSupport
import Testing

private let notula = binaryDirectory.appendingPathComponent("notula").path

/// One line of the JSON feed, as a bar reads it.
private struct StatusLine: Decodable {
    let state: String
    let elapsed: Double
    let timerAnchor: Int64
    let locale: String
    let text: String
    let tooltip: String
    let `class`: String

    enum CodingKeys: String, CodingKey {
        case state, elapsed, timerAnchor = "timer_anchor", locale, text, tooltip, `class`
    }

    init(_ line: String) throws { self = try JSONDecoder().decode(Self.self, from: Data(line.utf8)) }
}

@Suite("notula status --json for bars and scripts", .serialized)
struct StatusFeedTests {
    @Test func oneShotJSON() async throws {
        let service = try await ServiceUnderTest.start()
        let result = try run(notula, ["status", "--json"], environment: service.environment)
        let line = try StatusLine(result.output.trimmingCharacters(in: .newlines))
        #expect(line.state == "idle" && line.class == "idle" && line.elapsed == 0 && line.timerAnchor == 0)
        guard case .string(let locale) = try await service.property("Locale") else { throw MissingInterface(name: "Locale") }
        #expect(line.locale == locale)
    }

    @Test("--follow --json: a line per change and one per second recorded, from TimerAnchor")
    func followFollowsTheStates() async throws {
        let service = try await ServiceUnderTest.start()
        let follower = Process()
        follower.executableURL = URL(fileURLWithPath: notula)
        follower.arguments = ["status", "--follow", "--json"]
        follower.environment = service.environment
        let output = Pipe()
        follower.standardOutput = output
        try follower.run()
        defer {
            kill(follower.processIdentifier, SIGKILL)
            follower.waitUntilExit()
        }
        let lines = output.fileHandleForReading
        func next() throws -> StatusLine { try StatusLine(try readLine(from: lines)) }

        #expect(try next().state == "idle")
        try await service.recorder("Start")
        guard case .int64(let anchor) = try await service.property("TimerAnchor") else { throw MissingInterface(name: "TimerAnchor") }
        let started = try next()
        #expect(started.state == "recording" && started.class == "recording" && started.timerAnchor == anchor)
        #expect(started.text.hasSuffix("0:00"))
        // The ticks: whole seconds counted on this side from the anchor, with no traffic from the service.
        let first = try next()
        let second = try next()
        #expect(first.state == "recording" && first.elapsed == 1.0 && first.text.hasSuffix("0:01"), "\(first)")
        #expect(second.elapsed == 2.0 && second.timerAnchor == anchor, "\(second)")
        try await service.recorder("Pause")
        var paused = try next()
        while paused.state == "recording" { paused = try next() }
        #expect(paused.state == "paused" && paused.timerAnchor == 0 && paused.elapsed >= 2.0 && paused.text.hasPrefix("⏸"))
        try await service.recorder("Discard")
        #expect(try next().state == "idle")
        _ = service.stop()
        let gone = try next()
        #expect(gone.state == "not-running" && gone.class == "not-running")
    }
}
