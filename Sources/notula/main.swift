import DBus

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
      toggle            start, pause or resume, whichever the state calls for
      start | pause | resume
      send              end the recording and turn it into a memo; prints the memo's path
      discard           throw the recording away

    Exit status: 0 done, 1 failed, 2 bad command line, 3 notulad not running,
    4 not allowed in the current state, 5 no microphone (or access refused).
    """

func fail(_ status: ExitStatus, _ message: String) -> Never {
    var line = Array("notula: \(message)\n".utf8)
    _ = write(2, &line, line.count)
    exit(status.rawValue)
}

func status(for error: BusError) -> ExitStatus {
    switch error.name.rawValue {
    case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner": .notRunning
    case "org.notula.Notula1.Error.InvalidState": .invalidState
    case "org.notula.Notula1.Error.DeviceUnavailable", "org.notula.Notula1.Error.PermissionDenied": .noMicrophone
    default: .failure
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first, command != "--help", command != "-h" else {
    print(usage)
    exit(arguments.isEmpty ? ExitStatus.usage.rawValue : ExitStatus.success.rawValue)
}
let methods = ["toggle": "Toggle", "start": "Start", "pause": "Pause", "resume": "Resume", "send": "Process", "discard": "Discard"]
let follow = arguments.dropFirst() == ["--follow"]
guard (command == "status" && (arguments.count == 1 || follow)) || (methods[command] != nil && arguments.count == 1) else {
    fail(.usage, "unknown command line '\(arguments.joined(separator: " "))'; see notula --help")
}

let bus: Bus
do { bus = try await Bus.connect(.session) } catch { fail(.notRunning, error.message) }
let client = RecorderClient(bus: bus)

do throws(BusError) {
    if let method = methods[command] {
        let reply = try await client.call(MemberName(method)!)
        if case .objectPath(let memo)? = reply.body.first { print(memo) }
    } else if follow {
        try await client.follow()
    } else {
        print(try await client.statusLine())
    }
} catch {
    let exitStatus = status(for: error)
    fail(exitStatus, exitStatus == .notRunning ? "notulad is not running on the session bus (\(error.message))" : error.message)
}
