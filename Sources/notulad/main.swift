import NotulaService

#if canImport(Glibc)
    import Glibc
#endif

// Memos are clinical notes: whatever notulad or a library it loads creates is the user's alone.
umask(0o077)

// A parent may have blocked these (test runners do); the service must still hear them to stop cleanly.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)

switch ServiceOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .help:
    print(ServiceOptions.usage)
case .invalid(let message):
    Log.error("\(message)\n\(ServiceOptions.usage)")
    exit(64)
case .run(let options):
    exit(await Service.run(options))
}
