import DBus
import Foundation
import NotulaTestSupport
import Testing

private let speaker: BusName = "org.notula.Test.Speaker"
private let speakerPath = ObjectPath("/org/notula/Test/Speaker")!
private let speakerInterface: InterfaceName = "org.notula.Test.Speaker"

/// Connections to one private bus: a listener subscribed to a well-known name's signals, and others that speak.
private struct Room {
    let daemon: PrivateBus
    let listener: Bus
    let signals: AsyncStream<Message>

    static func make(rule: MatchRule = MatchRule(sender: speaker, path: speakerPath, interface: speakerInterface, member: "Said"))
        async throws
        -> Room
    {
        let daemon = try PrivateBus()
        let listener = try await daemon.connect()
        return Room(daemon: daemon, listener: listener, signals: try await listener.signals(matching: rule))
    }

    /// `from` says `text`: to every subscriber, or only to the listener (as a stranger can).
    func say(_ text: Value, from bus: Bus, unicast: Bool) async throws {
        let destination = unicast ? BusName(await listener.uniqueName) : nil
        try await bus.emit(path: speakerPath, interface: speakerInterface, member: "Said", arguments: [text], destination: destination)
        // The listener reads its messages in order: its answer to a later call means the signal was judged.
        _ = try? await bus.call(
            MethodCall(destination: BusName(await listener.uniqueName), path: .root, interface: "org.freedesktop.DBus.Peer", member: "Ping")
        )
    }

    /// What the listener received, up to and including `last`.
    func heard(until last: String) async -> [String] {
        var heard: [String] = []
        for await message in signals {
            let text = (try? message.argument(0, as: String.self)) ?? "\(message.body)"
            heard.append(text)
            if text == last { break }
        }
        return heard
    }
}

@Suite("Signals are believed only from their sender's current owner")
struct SignalSenderTests {
    @Test func aWellKnownNamesSignalsCountOnlyFromItsCurrentOwner() async throws {
        let room = try await Room.make()
        let stranger = try await room.daemon.connect()
        let first = try await room.daemon.connect()
        let second = try await room.daemon.connect()

        try await room.say(.string("while nobody owns the name"), from: stranger, unicast: true)
        #expect(try await first.requestName(speaker, allowReplacement: true) == .primaryOwner)
        try await room.say(.string("first owner"), from: first, unicast: false)
        try await room.say(.string("stranger"), from: stranger, unicast: true)
        #expect(try await second.requestName(speaker, replaceExisting: true) == .primaryOwner)
        try await room.say(.string("second owner"), from: second, unicast: false)
        try await room.say(.string("former owner"), from: first, unicast: true)
        try await room.say(.string("second owner again"), from: second, unicast: true)

        #expect(await room.heard(until: "second owner again") == ["first owner", "second owner", "second owner again"])
    }

    @Test func aSignalOfAnotherTypeDoesNotMatch() async throws {
        let room = try await Room.make(rule: MatchRule(path: speakerPath, interface: speakerInterface, member: "Said", signature: "s"))
        let speaking = try await room.daemon.connect()
        try await room.say(.scalars(.bytes(Array("bytes".utf8))), from: speaking, unicast: false)
        try await room.say(.boolean(true), from: speaking, unicast: false)
        try await room.say(.string("a string"), from: speaking, unicast: false)
        #expect(await room.heard(until: "a string") == ["a string"])
    }

    @Test func arg0MatchesOnlyAStringFirstArgument() async throws {
        let room = try await Room.make(rule: MatchRule(path: speakerPath, interface: speakerInterface, member: "Said", arg0: "yes"))
        let speaking = try await room.daemon.connect()
        // Unicast: the daemon delivers them whatever the rule, so the check is the listener's own.
        try await room.say(.scalars(.bytes(Array("yes".utf8))), from: speaking, unicast: true)
        try await room.say(.string("no"), from: speaking, unicast: true)
        try await room.say(.string("yes"), from: speaking, unicast: false)
        #expect(await room.heard(until: "yes") == ["yes"])
    }
}
