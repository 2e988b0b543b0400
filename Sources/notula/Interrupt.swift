import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `action` at each Ctrl-C instead of ending the command, until the returned source is
/// cancelled: for commands that show something the service does (a download, a playback), where
/// Ctrl-C should stop that too, and the command then ends with it.
func onInterrupt(_ action: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler(handler: action)
    source.resume()
    return source
}
