import Recording
import Speech

/// Several listeners of the live text, each told everything.
public struct LiveTextListeners: LiveTextListener {
    let listeners: [any LiveTextListener]

    public init(listeners: [any LiveTextListener]) { self.listeners = listeners }

    public var isFollowed: Bool { listeners.contains { $0.isFollowed } }
    public func heard(_ speech: HeardSpeech, of recording: RecordingID) { listeners.forEach { $0.heard(speech, of: recording) } }
    public func ended(_ recording: RecordingID) { listeners.forEach { $0.ended(recording) } }
}
