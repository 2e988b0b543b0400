import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `action` at each Ctrl-C instead of ending the command, until `cancel()` on what it
/// returns: for commands that show something the service does (a download, a playback), where
/// Ctrl-C should stop that too, and the command then ends with it.
///
/// The handler is in place when this returns: a Ctrl-C a moment later is not lost (a dispatch
/// signal source starts listening only some time after it is resumed).
func onInterrupt(_ action: @escaping @Sendable () -> Void) -> InterruptHandling {
    let ends = interruptPipe
    let source = DispatchSource.makeReadSource(fileDescriptor: ends.read, queue: .global())
    source.setEventHandler {
        var byte: UInt8 = 0
        guard read(ends.read, &byte, 1) == 1 else { return }
        action()
    }
    source.resume()
    // All a signal handler may safely do: write a byte, which waits in the pipe until read.
    signal(SIGINT) { _ in
        var byte: UInt8 = 1
        _ = write(interruptPipe.write, &byte, 1)
    }
    return InterruptHandling(source: source)
}

/// Ctrl-C handled by `onInterrupt`, until cancelled; then it ends the command again.
struct InterruptHandling {
    let source: any DispatchSourceRead

    func cancel() {
        signal(SIGINT, SIG_DFL)
        source.cancel()
    }
}

/// The pipe from the SIGINT handler to its action, made once, before any handler can use it.
private let interruptPipe: (read: Int32, write: Int32) = {
    var ends: [Int32] = [-1, -1]
    _ = pipe(&ends)
    return (ends[0], ends[1])
}()
