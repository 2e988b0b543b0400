#if canImport(Glibc)
    import Glibc
#endif

/// What a listener hears of the recordings as they happen.
public enum ListenedStream: String, Sendable {
    /// `OpenAudio`'s samples.
    case audio
    /// `WatchText`'s words.
    case text

    /// For the journal: "the live audio".
    public var described: String { "the live \(rawValue)" }
}

/// One reader of the live audio or text, as `Listeners` shows it.
public struct Listener: Sendable, Equatable {
    public let stream: ListenedStream
    public let caller: Caller
    /// When it attached, in microseconds of the Unix epoch.
    public let since: Int64

    public init(_ stream: ListenedStream, caller: Caller, since: Int64 = Listener.now()) {
        self.stream = stream
        self.caller = caller
        self.since = since
    }

    public static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }
}

/// Tells that somebody began or stopped listening, on whichever thread noticed it; a follower reads who listens then.
/// Changes that come faster than they are followed are told once.
public final class ListenerChanges: Sendable {
    public let changes: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    public init() { (changes, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1)) }

    public func changed() { continuation.yield() }
}
