import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// Thousands of random messages at the real notulad: every one is answered, with a reply or a
/// named error, and the service stays up with its state and its memos consistent.
@Suite("Random messages at the real notulad", .serialized, .tags(.reliability))
struct BusFuzzTests {
    /// 3000 in `make test` (about 5 s on an idle machine, 40 s on a loaded one);
    /// NOTULA_FUZZ_MESSAGES asks for a longer run.
    static let messages = ProcessInfo.processInfo.environment["NOTULA_FUZZ_MESSAGES"].flatMap { Int($0) } ?? 3000

    private static let members: [(InterfaceName?, [MemberName])] = [
        (NotulaBus.recorderInterface, NotulaBus.Recorder.Method.allCases.map(\.rawValue)),
        (NotulaBus.memoInterface, NotulaBus.Memo.Method.allCases.map(\.rawValue)),
        (NotulaBus.libraryInterface, NotulaBus.Library.Method.allCases.map(\.rawValue)),
        (NotulaBus.modelsInterface, NotulaBus.Models.Method.allCases.map(\.rawValue)),
        ("org.freedesktop.DBus.Properties", ["Get", "Set", "GetAll"]),
        ("org.freedesktop.DBus.Introspectable", ["Introspect"]),
        ("org.freedesktop.DBus.Peer", ["Ping", "GetMachineId"]),
        ("org.freedesktop.DBus.ObjectManager", ["GetManagedObjects"]),
        ("org.example.Nope", ["Frobnicate", "Toggle"]),
        (nil, ["Toggle", "Get", "Delete", "List", "Nope"]),
    ]
    private static let interfaceNames = members.compactMap { $0.0?.rawValue }
    private static let properties = [
        "State", "PauseReason", "Elapsed", "TimerAnchor", "Level", "Locale", "Title", "Created", "Status", "AudioFile", "Duration",
        "Count", "Playing", "Permissions", "SupportedLocales", "InstalledLocales", "DownloadingLocale", "DownloadProgress", "Nope", "",
    ]

    @Test func everyRandomMessageIsAnsweredAndTheServiceStaysConsistent() async throws {
        let sound = try await PrivateSoundServer()
        let service = try await ServiceUnderTest.start(
            .named("mic.monitor"), environment: ["PULSE_SERVER": sound.address, "NOTULA_MODEL_CATALOG": "http://127.0.0.1:9/none.json"],
            settings: [#""mpris": true"#])
        let seed = ProcessInfo.processInfo.environment["NOTULA_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        var values = RandomValues(random: SeededGenerator(seed: seed))
        // Said first, so that a run that never ends can be repeated too.
        print("FUZZ seed \(seed): NOTULA_FUZZ_SEED=\(seed) repeats this run")
        var memos = try await recordMemos(2, on: service)
        let targets = try await everyExportedMember(of: service, memos: memos)
        #expect(Set(targets.methods.map(\.interface)).isSuperset(of: Self.exportedInterfaces), "\(Set(targets.methods.map(\.interface)))")
        var perInterface: [String: Int] = [:]

        var answers: [String: Int] = [:]
        /// One message of each of Notula's own errors, to show what a caller reads.
        var examples: [String: String] = [:]
        var unanswered: [String] = []
        let started = ContinuousClock.now
        try await holdSpokenMemo(on: service, sound: sound)
        let edges = edgeCalls(targets.methods, targets.properties, &values)
        for index in 0..<(edges.count + Self.messages) {
            let call =
                index < edges.count
                ? edges[index] : values.chance(50) ? typedMessage(targets, &values) : message(index, &values, memos: memos)
            perInterface[call.interface?.rawValue ?? "-", default: 0] += 1
            do {
                _ = try await service.client.call(call, timeout: .seconds(10))
                answers["reply", default: 0] += 1
            } catch {
                answers[error.name.rawValue, default: 0] += 1
                if error.name.rawValue.hasPrefix("org.notula.") {
                    examples[error.name.rawValue] = examples[error.name.rawValue] ?? error.message
                }
                if [.noReply, .timeout, .disconnected, .serviceUnknown].contains(error.name) || error.message.isEmpty {
                    unanswered.append("\(call.interface?.rawValue ?? "-").\(call.member) at \(call.path): \(error)")
                }
            }
            if index % 500 == 499 { memos = (try? await memoPaths(of: service)) ?? memos }
        }
        let elapsed = (ContinuousClock.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        print(
            "FUZZ seed \(seed): \(edges.count) edge calls and \(Self.messages) messages in \(String(format: "%.1f", seconds)) s; answers \(answers.sorted { $0.key < $1.key })"
        )

        print("FUZZ per interface \(perInterface.sorted { $0.key < $1.key })")
        print("FUZZ examples \(examples.sorted { $0.key < $1.key })")
        #expect(unanswered.isEmpty, "\(unanswered.prefix(5))")
        let unnamed = answers.keys.filter {
            $0 != "reply" && !$0.hasPrefix("org.freedesktop.DBus.Error.") && !NotulaErrorName.allCases.map(\.rawValue.rawValue).contains($0)
        }
        #expect(unnamed.isEmpty, "errors without a name of the contract: \(unnamed)")
        _ = try await service.call(NotulaBus.recorderPath, "org.freedesktop.DBus.Peer", "Ping")
        try await checkConsistent(service)
        try expectOnlyItsOwnFiles(in: service.home)
    }

    /// Every interface notulad exports, which the fuzz must reach with arguments of the right types.
    private static let exportedInterfaces: Set<InterfaceName> = [
        NotulaBus.recorderInterface, NotulaBus.libraryInterface, NotulaBus.modelsInterface, NotulaBus.memoInterface,
        "org.kde.StatusNotifierItem", "com.canonical.dbusmenu", "org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player",
        "org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer",
        "org.freedesktop.DBus.ObjectManager",
    ]

    /// The members of every object the service exports: its own, a memo's, the tray's, and the media
    /// player's, which exists only while a recording does.
    private func everyExportedMember(of service: ServiceUnderTest, memos: [ObjectPath]) async throws -> (
        methods: [FuzzMethod], properties: [FuzzProperty]
    ) {
        try await service.recorder(.start)
        let own = try await fuzzTargets(
            of: service, at: [NotulaBus.recorderPath, NotulaBus.libraryPath, NotulaBus.modelsPath, NotulaBus.rootPath] + memos.prefix(1))
        // The tray's and the media player's, each through its own name, on a connection of its own.
        let tray = try await fuzzTargets(
            of: service, at: [ObjectPath("/StatusNotifierItem")!, ObjectPath("/StatusNotifierItem/Menu")!], on: try await service.trayName())
        // The player's through its connection's unique name, which stays when its well-known name goes with the recording.
        var playerConnection: String?
        try await poll(within: .seconds(10), until: {
            playerConnection = try await service.client.owner(of: "org.mpris.MediaPlayer2.notula")
            return playerConnection != nil
        }) { MissingOutput() }
        let player = try await fuzzTargets(
            of: service, at: [ObjectPath("/org/mpris/MediaPlayer2")!], on: try #require(playerConnection.flatMap(BusName.init)))
        try await service.recorder(.discard)
        return (own.0 + tray.0 + player.0, own.1 + tray.1 + player.1)
    }

    /// A memo of a few seconds of speech, played and held at its start, so that the media player's edge calls (Seek
    /// by Int64.min, …) reach a memo's playback: the memos of `recordMemos` end before a Pause could hold them.
    private func holdSpokenMemo(on service: ServiceUnderTest, sound: PrivateSoundServer) async throws {
        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        let spoken = try run(
            "/usr/bin/paplay", ["--device=mic", try speech("A memo held while the fuzz runs")], environment: sound.environment)
        #expect(spoken.status == 0, "\(spoken.errorOutput)")
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        try await service.untilProcessed(signals)
        _ = try await service.memo(.play, of: memo)
        _ = try await service.memo(.pause, of: memo)
    }

    /// A call of a member the service exports with arguments of the types it takes (integers at
    /// their edges, large arrays now and then), or a property read or written with a value of its type.
    private func typedMessage(_ targets: (methods: [FuzzMethod], properties: [FuzzProperty]), _ values: inout RandomValues) -> MethodCall {
        if values.chance(25), !targets.properties.isEmpty {
            let property = targets.properties[values.count(0...(targets.properties.count - 1))]
            let set = values.chance(50)
            let arguments: [Value] =
                [.string(property.interface.rawValue), .string(property.name)] + (set ? [.variant(values.value(of: property.type))] : [])
            return MethodCall(
                destination: property.destination, path: property.path, interface: "org.freedesktop.DBus.Properties",
                member: set ? "Set" : "Get", arguments: arguments)
        }
        let method = targets.methods[values.count(0...(targets.methods.count - 1))]
        return MethodCall(
            destination: method.destination, path: method.path, interface: method.interface, member: method.member,
            arguments: method.inputTypes.map { values.value(of: $0) })
    }

    /// The `index`th message: mostly real members on real objects with random arguments, every
    /// 250th one deep or huge.
    private func message(_ index: Int, _ values: inout RandomValues, memos: [ObjectPath]) -> MethodCall {
        let (interface, names) = Self.members[values.count(0...(Self.members.count - 1))]
        let member = values.chance(90) ? names[values.count(0...(names.count - 1))] : MemberName("Random\(values.count(0...99))")!
        let path = values.chance(70) ? home(of: interface, memos: memos, &values) : values.chance(70) ? any(memos, &values) : values.path()
        var arguments: [Value]
        switch index % 250 {
        case 50: arguments = [values.deepArrays()]
        case 100: arguments = [values.deepStructures(), values.deepVariants()]
        case 150: arguments = [values.huge(megabytes: 2, asArray: false)]
        case 200: arguments = [values.huge(megabytes: 2, asArray: true)]
        default: arguments = (0..<values.count(0...3)).map { _ in values.value() }
        }
        if interface?.rawValue == "org.freedesktop.DBus.Properties", values.chance(70) {
            let owner = values.chance(90) ? Self.interfaceNames[values.count(0...(Self.interfaceNames.count - 1))] : values.string()
            let property = Self.properties[values.count(0...(Self.properties.count - 1))]
            arguments = [.string(owner), .string(property)] + (member == "Set" ? [.variant(values.value())] : [])
            if member == "Set", values.chance(20) { arguments = [.string(owner), .string(property), .variant(.string(values.string()))] }
        }
        return MethodCall(destination: NotulaBus.name, path: path, interface: interface, member: member, arguments: arguments)
    }

    /// The object that has `interface`; any of the service's for the standard ones.
    private func home(of interface: InterfaceName?, memos: [ObjectPath], _ values: inout RandomValues) -> ObjectPath {
        switch interface {
        case NotulaBus.recorderInterface: NotulaBus.recorderPath
        case NotulaBus.libraryInterface: NotulaBus.libraryPath
        case NotulaBus.modelsInterface: NotulaBus.modelsPath
        case "org.freedesktop.DBus.ObjectManager": NotulaBus.rootPath
        case NotulaBus.memoInterface where !memos.isEmpty: memos[values.count(0...(memos.count - 1))]
        default: any(memos, &values)
        }
    }

    private func any(_ memos: [ObjectPath], _ values: inout RandomValues) -> ObjectPath {
        let paths =
            [
                NotulaBus.recorderPath, NotulaBus.libraryPath, NotulaBus.modelsPath,
                NotulaBus.rootPath,
            ] + memos
        return paths[values.count(0...(paths.count - 1))]
    }
}

/// Memos recorded for a test to aim at: each a second or so of the sound server's silence.
func recordMemos(_ count: Int, on service: ServiceUnderTest) async throws -> [ObjectPath] {
    var events = try await service.recorderSignals().makeAsyncIterator()
    for _ in 0..<count {
        try await service.recorder(.start)
        try await service.recorder(.process)
        _ = await events.events(until: .state("idle", reason: ""))
    }
    return try await memoPaths(of: service)
}

/// The memos the service's object manager lists.
func memoPaths(of service: ServiceUnderTest) async throws -> [ObjectPath] {
    let reply = try await service.call(NotulaBus.rootPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
    let objects = try reply.argument(0, as: [ObjectPath: [String: [String: Variant]]].self)
    return objects.keys.filter { $0.rawValue.hasPrefix("/org/notula/Notula1/Memos/") }.sorted()
}

/// Once the recorder is at rest: every memo's audio exists, every audio file is a memo's (or the
/// recording's in progress), and the service answers for its objects.
func checkConsistent(_ service: ServiceUnderTest) async throws {
    var events = try await service.recorderSignals().makeAsyncIterator()
    if try await service.property(.state) == .string("processing") {
        _ = await events.events { if case .state(let state, _) = $0 { state != "processing" } else { false } }
    }
    var files = Set(try FileManager.default.contentsOfDirectory(atPath: service.recordingsFolder.path))
    for memo in try await memoPaths(of: service) {
        guard case .string(let audio) = try await service.property(.audioFile, of: memo) else {
            Issue.record("\(memo) has no AudioFile")
            continue
        }
        #expect(FileManager.default.fileExists(atPath: audio), "\(memo): \(audio) is missing")
        files.remove((audio as NSString).lastPathComponent)
    }
    let state = try await service.property(.state)
    #expect(files.count <= (state == .string("idle") ? 0 : 1), "audio without a memo: \(files.sorted().prefix(5)) while \(state)")
    _ = try await service.call(NotulaBus.recorderPath, "org.freedesktop.DBus.Introspectable", "Introspect")
}
