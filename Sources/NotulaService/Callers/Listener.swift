import DBus

#if canImport(Glibc)
    import Glibc
#endif

/// What a listener hears of the recordings as they happen.
enum ListenedStream: String, Sendable {
    /// `OpenAudio`'s samples.
    case audio
    /// `WatchText`'s words.
    case text

    /// For the journal: "the live audio".
    var described: String { "the live \(rawValue)" }
}

/// One reader of the live audio or text, as `Listeners` shows it.
struct Listener: Sendable, Equatable {
    let stream: ListenedStream
    let caller: Caller
    /// When it attached, in microseconds of the Unix epoch.
    let since: Int64

    init(_ stream: ListenedStream, caller: Caller, since: Int64 = Listener.now()) {
        self.stream = stream
        self.caller = caller
        self.since = since
    }

    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }
}

/// Tells that somebody began or stopped listening, on whichever thread noticed it; a follower reads who listens then.
/// Changes that come faster than they are followed are told once.
final class ListenerChanges: Sendable {
    let changes: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() { (changes, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1)) }

    func changed() { continuation.yield() }
}

extension Listener {
    /// `Listeners`' type: (stream, program, connection, since) each.
    static let busElement: Signature = "(sssx)"
    static let busSignature: Signature = "a(sssx)"

    var busValue: Value { .structure([.string(stream.rawValue), .string(caller.program), .string(caller.busName), .int64(since)]) }
}
