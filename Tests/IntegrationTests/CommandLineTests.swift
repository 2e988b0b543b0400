import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

private let notula = binaryDirectory.appendingPathComponent("notula").path

@Suite("The notula command and other clients", .serialized)
struct CommandLineTests {
    @Test func exitCodesScriptsCanRelyOn() async throws {
        let service = try await ServiceUnderTest.start()
        let environment = service.environment
        #expect(try run(notula, ["status"], environment: environment).output == "idle 0.0\n")
        let pause = try run(notula, ["pause"], environment: environment)
        #expect(pause.status == 4)
        #expect(pause.errorOutput == "notula: Cannot Pause while idle: idle allows Toggle, Start\n")
        #expect(try run(notula, ["toggle"], environment: environment).status == 0)
        #expect(try run(notula, ["status"], environment: environment).output.hasPrefix("recording "))
        let send = try run(notula, ["send"], environment: environment)
        #expect(send.status == 0)
        #expect(send.output.hasPrefix("/org/notula/Notula1/Memos/"))
        #expect(try run(notula, ["frobnicate"], environment: environment).status == 2)
    }

    @Test("notula COMMAND --help and notula help COMMAND print that command's usage, with no bus to ask")
    func everyCommandHasItsUsage() throws {
        var noBus = ProcessInfo.processInfo.environment
        noBus["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        let commands = [
            "status", "status --follow", "status --json", "toggle", "start", "pause", "resume", "send", "discard", "locale", "models",
            "models list", "models install", "models use", "models remove", "models cancel", "memos", "memos list", "memos search",
            "memos show",
            "memos play", "memos export", "memos rename", "memos delete", "help",
        ]
        for command in commands {
            let words = command.split(separator: " ").map(String.init)
            let flag = try run(notula, words + ["--help"], environment: noBus)
            #expect(flag.status == 0 && flag.output.hasPrefix("Usage:\n  notula "), "\(command) --help: \(flag.errorOutput)")
            let commandLines = flag.output.split(separator: "\n").dropFirst().filter { $0.hasPrefix("  notula ") }
            #expect(!commandLines.isEmpty && commandLines.allSatisfy { $0.contains(command) }, "\(command): \(flag.output)")
            #expect(try run(notula, ["help"] + words, environment: noBus).output == flag.output, "notula help \(command)")
        }
        #expect(
            try run(notula, ["models", "--help"], environment: noBus).output == """
                Usage:
                  notula models list       every supported locale: installed, downloading (with how far), or available
                  notula models list --all  every model of every locale: its kind (small, big, big-lgraph), its size on disk or
                                           to download, the one in use, and the memory it took when last loaded
                  notula models install TAG  download and install the model of TAG, with a progress bar;
                                           Ctrl-C cancels the download
                  notula models install TAG --model NAME  the same for the model NAME of TAG (models list --all names them)
                  notula models use TAG NAME  transcribe TAG with the model NAME from now on; downloaded when missing
                                           (a Whisper model writes each utterance again; "" for NAME: none does)
                  notula models remove TAG  delete the models Notula installed for TAG
                  notula models remove TAG --model NAME  delete only that one
                  notula models cancel     stop the download in flight

                """)
        #expect(try run(notula, ["memos", "show", "1234", "-h"], environment: noBus).output.contains("notula memos show ID "))
        let unknown = try run(notula, ["help", "frobnicate"], environment: noBus)
        #expect(unknown.status == 2 && unknown.errorOutput == "notula: unknown command 'frobnicate'; see notula --help\n")
    }

    @Test("models list with no catalog and no model says why on stderr and fails; a model put where it says is listed")
    func modelsListWithNothingToListSaysWhy() async throws {
        let unreachable = "http://127.0.0.1:\(try closedLoopbackPort())/model-list.json"
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": unreachable, "VOSK_MODEL_PATH": ""])
        let empty = try run(notula, ["models", "list"], environment: service.environment)
        #expect(empty.status == 1)
        #expect(empty.output.isEmpty)
        for part in ["no speech model is installed", "Cannot fetch the model catalog", "~/.cache/vosk", "notula models install TAG"] {
            #expect(empty.errorOutput.contains(part), "\(part) in: \(empty.errorOutput)")
        }

        let model = service.home.appendingPathComponent(".cache/vosk/vosk-model-small-ko-0.22")
        for file in ["am/final.mdl", "conf/model.conf"] {
            let path = model.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: path)
        }
        let listed = try run(notula, ["models", "list"], environment: service.environment)
        #expect(listed.status == 0 && listed.output == "ko-KR installed\n", "\(listed.output)\(listed.errorOutput)")
    }

    @Test func notRunningIsItsOwnExitCode() throws {
        let daemon = try PrivateBus()
        let result = try run(notula, ["status"], environment: daemon.environment)
        #expect(result.status == 3)
        #expect(result.errorOutput.hasPrefix("notula: notulad is not running"))
        var noBus = ProcessInfo.processInfo.environment
        noBus["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        #expect(try run(notula, ["toggle"], environment: noBus).status == 3)
    }

    @Test func noMicrophoneIsItsOwnExitCode() async throws {
        let service = try await ServiceUnderTest.start(.named("no_such_microphone"))
        let result = try run(notula, ["start"], environment: service.environment)
        #expect(result.status == 5)
        #expect(result.errorOutput.contains("no_such_microphone"))
    }

    @Test func followPrintsALinePerChange() async throws {
        let service = try await ServiceUnderTest.start()
        let follower = try RunningCommand(notula, ["status", "--follow"], environment: service.environment)
        #expect(try follower.nextLine() == "idle 0.0")
        try await service.recorder(.start)
        #expect(try follower.nextLine() == "recording 0.0")
        try await service.recorder(.pause)
        #expect(try follower.nextLine().hasPrefix("paused "))
        try await service.recorder(.discard)
        #expect(try follower.nextLine() == "idle 0.0")
        _ = service.stop()
        #expect(try follower.nextLine() == "not-running 0.0")
    }

    @Test func busctlAndGdbusDriveTheRecorder() async throws {
        let service = try await ServiceUnderTest.start()
        let environment = service.environment
        let toggle = try run(
            "busctl", ["--user", "call", "org.notula.Notula1", "/org/notula/Notula1/Recorder", "org.notula.Notula1.Recorder", "Toggle"],
            environment: environment)
        #expect(toggle.status == 0, "\(toggle.errorOutput)")
        let state = try run(
            "busctl",
            ["--user", "get-property", "org.notula.Notula1", "/org/notula/Notula1/Recorder", "org.notula.Notula1.Recorder", "State"],
            environment: environment)
        #expect(state.output == "s \"recording\"\n")
        let refused = try run(
            "gdbus",
            [
                "call", "--session", "--dest", "org.notula.Notula1", "--object-path", "/org/notula/Notula1/Recorder", "--method",
                "org.notula.Notula1.Recorder.Resume", "--timeout", "5",
            ], environment: environment)
        #expect(refused.status == 0, "Resume while recording succeeds without change: \(refused.errorOutput)")
        let discard = try run(
            "gdbus",
            [
                "call", "--session", "--dest", "org.notula.Notula1", "--object-path", "/org/notula/Notula1/Recorder", "--method",
                "org.notula.Notula1.Recorder.Discard",
            ], environment: environment)
        #expect(discard.status == 0)
        let invalid = try run(
            "gdbus",
            [
                "call", "--session", "--dest", "org.notula.Notula1", "--object-path", "/org/notula/Notula1/Recorder", "--method",
                "org.notula.Notula1.Recorder.Process",
            ], environment: environment)
        #expect(invalid.status != 0)
        #expect(invalid.errorOutput.contains(NotulaErrorName.invalidState.rawValue.rawValue))
    }
}
