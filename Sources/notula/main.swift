import DBus
import NotulaContract
import Recording

#if canImport(Glibc)
    import Glibc
#endif

/// Exit statuses a script can rely on; `notula --help` lists them.
enum ExitStatus: Int32 {
    case success = 0, failure = 1, usage = 2, notRunning = 3, invalidState = 4, noMicrophone = 5
}

let usage = """
    Usage: notula COMMAND

    Commands:
      status            print the state and the seconds recorded: "recording 12.3"
      status --follow   print that line again at every change, until interrupted
      status --json     the same as one JSON object a line (state, elapsed, timer_anchor, locale, and
                        waybar's text, tooltip and class); with --follow, also a line every second recorded
      toggle            start, pause or resume, whichever the state calls for
      start | pause | resume  one step of the recording; refused when the state does not allow it
      send              end the recording and turn it into a memo; prints the memo's path
      send --type       the same, its text then typed into the focused window, whatever the output setting
      send --copy       the same, its text then put on the clipboard
      discard           throw the recording away
      dictate           start a recording that is typed into the focused window and sent by itself after
                        2 s without speech (one key binding gives hands-free dictation); Output and the
                        silence setting stay as they are
      dictate --silence SECONDS  the same, sent after SECONDS without speech (0: only by send)
      watch             the words while they are spoken, from now until interrupted: the current guess
                        rewritten on its line, each sentence on a line of its own when it ends
      watch --json      every line notulad sends as it is (kind partial, final, revised or end; see WatchText)
      listen            the audio of the recordings from now on, until interrupted, on standard output:
                        16 kHz mono signed 16-bit little-endian samples, raw (notula listen | sox -t raw
                        -r 16000 -e signed -b 16 -c 1 - memo.flac)
      listen --format FORMAT  the same in FORMAT: s16le, f32le (32-bit floats) or vad (only the stretches
                        of speech, each with a 12-byte header; see OpenAudio)
      locale            print the locale recordings are transcribed in, and the other languages you speak
      locale TAG        transcribe in TAG (a BCP 47 tag: en-US, nl-NL, ko-KR); its model is
                        downloaded when missing
      locale TAG --also TAG...  the same, and you speak the others too (at most 4): a multilingual
                        accurate model writes each utterance in the language it hears among them
                        (Whisper base, small); --also alone: TAG only
      models list       every supported locale: installed, downloading (with how far), or available
      models list --all  every model of every locale: its kind (small, big, big-lgraph), its size on disk or
                        to download, the one in use, and the memory it took when last loaded
      models install TAG  download and install the model of TAG, with a progress bar;
                        Ctrl-C cancels the download
      models install TAG --model NAME  the same for the model NAME of TAG (models list --all names them)
      models use TAG NAME  transcribe TAG with the model NAME from now on; downloaded when missing
                        (a Whisper model writes each utterance again; "" for NAME: none does)
      models remove TAG  delete the models Notula installed for TAG
      models remove TAG --model NAME  delete only that one
      models cancel     stop the download in flight
    \(MemosCommand.usage)
      permissions       the sandboxed apps (Flatpak, Snap) allowed or denied to hear your recordings: the live
                        audio and text, transcripts, exports and where dictated text goes. An app not
                        listed is asked in a notification at its first request; programs outside a
                        sandbox are never asked
      permissions allow APP  let the sandboxed app APP (its app id, as permissions lists it) hear them
      permissions deny APP  refuse APP without asking again
      permissions revoke APP  forget what was decided for APP: it is asked again at its next request
      vocabulary        your own words and phrases (names, drugs, places), a term a line: Whisper is
                        prompted with them, and a word that sounds near one is written in its spelling
      vocabulary add TERM...  add each TERM (quote a phrase: "Addison's disease"); at most 500 terms
                        of at most 64 characters
      vocabulary remove TERM...  remove each TERM, whatever its case
      help COMMAND      print the usage of COMMAND (a command, or a command and its subcommand: models
                        install); notula COMMAND --help does the same

    Exit status: 0 done, 1 failed, 2 bad command line (or a locale no model serves), 3 notulad not running,
    4 not allowed in the current state, 5 no microphone (or access refused).
    """

func fail(_ status: ExitStatus, _ message: String) -> Never {
    // A bus error's message may quote what a peer wrote (a title, a model's name).
    var line = Array("notula: \(TerminalText.safe(message, keepingLines: true))\n".utf8)
    _ = write(2, &line, line.count)
    exit(status.rawValue)
}

func status(for error: BusError) -> ExitStatus {
    switch error.name {
    case .serviceUnknown, .nameHasNoOwner: .notRunning
    case .invalidState: .invalidState
    case .invalidArgs: .usage
    case .deviceUnavailable, .permissionDenied, .accessDenied: .noMicrophone
    default: .failure
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let helpFlags: Set = ["--help", "-h"]
guard let command = arguments.first, !helpFlags.contains(command), arguments != ["help"] else {
    print(usage)
    exit(arguments.isEmpty ? ExitStatus.usage.rawValue : ExitStatus.success.rawValue)
}
// `notula help COMMAND` and `notula COMMAND --help`: the usage of that command, without the bus
// (`notula help --help` is the usage of `help`).
if command == "help" || arguments.contains(where: helpFlags.contains) {
    let named = arguments.filter { !helpFlags.contains($0) }
    let words = command == "help" && named.count > 1 ? Array(named.dropFirst()) : named
    guard let help = CommandHelp(usage: usage).usage(of: words) else {
        fail(.usage, "unknown command '\(words[0])'; see notula --help")
    }
    print(help)
    exit(ExitStatus.success.rawValue)
}

let methods: [String: NotulaBus.Recorder.Method] = [
    "toggle": .toggle, "start": .start, "pause": .pause, "resume": .resume, "send": .process, "discard": .discard,
]
/// `send`'s flags: the output of `ProcessTo` for this recording.
let sendOutputs = ["--type": "type", "--copy": "clipboard"]
let operands = Array(arguments.dropFirst())
let isValid: Bool =
    switch (command, operands.count) {
    case ("status", _): Set(operands).isSubset(of: ["--follow", "--json"]) && Set(operands).count == operands.count
    case ("locale", 0), ("locale", 1): operands.first != "--also"
    case ("locale", _): operands[1] == "--also" && operands.count <= 2 + 4
    case ("models", 1): ["list", "cancel"].contains(operands[0])
    case ("models", 2): ["install", "remove"].contains(operands[0]) || operands == ["list", "--all"]
    case ("models", 3): operands[0] == "use"
    case ("models", 4): ["install", "remove"].contains(operands[0]) && operands[2] == "--model"
    case ("memos", _): MemosCommand.isValid(operands)
    case ("permissions", _): PermissionsCommand.isValid(operands)
    case ("vocabulary", _): VocabularyCommand.isValid(operands)
    case ("send", 1): sendOutputs[operands[0]] != nil
    case ("dictate", 0): true
    case ("dictate", 2): operands[0] == "--silence" && Double(operands[1]) != nil
    case ("watch", 0): true
    case ("watch", 1): operands[0] == "--json"
    case ("listen", 0): true
    case ("listen", 2): operands[0] == "--format" && AudioForm(rawValue: operands[1]) != nil
    default: methods[command] != nil && operands.isEmpty
    }
if command == "listen", operands.count == 2, operands[0] == "--format", AudioForm(rawValue: operands[1]) == nil {
    fail(.usage, "--format is \(AudioForm.spelled), not '\(operands[1])'")
}
guard isValid else {
    fail(.usage, "unknown command line '\(arguments.joined(separator: " "))'; see notula --help")
}

let bus: Bus
do { bus = try await Bus.connect(.session) } catch { fail(.notRunning, error.message) }
let recorder = RecorderClient(bus: bus)
let models = ModelsClient(bus: bus)

do throws(BusError) {
    switch (command, operands.first) {
    case ("status", _):
        let format: StatusFormat = operands.contains("--json") ? .json : .plain
        if operands.contains("--follow") { try await StatusFeed(recorder: recorder, format: format).run() }
        print(format.line(try await recorder.status(), at: monotonicMicroseconds()))
    case ("locale", nil): print(try await models.locale() + (try await models.alsoSpoken().map { " (also \($0.joined(separator: ", ")))" } ?? ""))
    case ("locale", let tag?) where operands.count > 1: print(try await models.setLocale(tag, also: Array(operands.dropFirst(2))))
    case ("locale", let tag?): print(try await models.setLocale(tag))
    case ("models", "list"): try await (operands.count == 2 ? models.listAll() : models.list()).forEach { print(TerminalText.safe($0)) }
    case ("models", "install"): print(try await models.install(operands[1], model: operands.dropFirst(3).first, progressBar: ProgressBar()))
    case ("models", "use"): print(try await models.use(operands[1], model: operands[2]))
    case ("models", "remove"): try await models.remove(operands[1], model: operands.dropFirst(3).first)
    case ("models", _): try await models.cancel()
    case ("memos", _): try await MemosCommand(client: MemosClient(bus: bus)).run(operands)
    case ("permissions", _): try await PermissionsCommand(recorder: recorder).run(operands).forEach { print($0) }
    case ("vocabulary", _): try await VocabularyCommand(recorder: recorder).run(operands).forEach { print($0) }
    case ("send", let flag?): print(try await recorder.processTo(sendOutputs[flag]!))
    case ("dictate", _): try await recorder.dictate(silenceSeconds: operands.last.flatMap(Double.init) ?? 2)
    case ("watch", _): try await TextWatch(recorder: recorder, json: operands == ["--json"]).run()
    case ("listen", _): try await AudioListen(recorder: recorder, format: operands.last ?? AudioForm.s16le.rawValue).run()
    default:
        let reply = try await recorder.call(methods[command]!)
        if case .objectPath(let memo)? = reply.body.first { print(memo) }
    }
} catch {
    let exitStatus = status(for: error)
    fail(exitStatus, exitStatus == .notRunning ? "notulad is not running on the session bus (\(error.message))" : error.message)
}
