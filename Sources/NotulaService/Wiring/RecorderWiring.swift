import DBus
import Dictating
import Notifying
import Recording

#if canImport(Glibc)
    import Glibc
#endif

/// The recorder, on the bus's executor, driving the capture and the library and reporting to every surface: the bus
/// signals first, so that a notification never shows a state the recorder object does not have yet.
enum RecorderWiring {
    static func make(
        bus: Bus, capture: CaptureParts, library: LibraryParts, dictation: DictationParts, notifier: Notifier, panels: Panels,
        locale: LocaleChoice
    ) -> Recorder {
        let cues = panels.cues
        let memos = library.memos
        return Recorder(
            isolation: bus, clock: MonotonicSystemClock(), capture: capture.capture, processing: library.memos,
            reporter: Reporters(surfaces: [
                RecorderSignals(bus: bus), NotificationReporter(notifier: notifier, memos: library.memos),
                DeliveryReporter(
                    text: { recording in memos.assumeIsolated { $0.text(of: recording) } }, choice: dictation.output,
                    delivery: dictation.dictation, liveTyping: dictation.liveTyping, listener: dictation.signals),
                Reporters(surfaces: panels.reporters),
            ]),
            makeRecordingID: newRecordingID, pickedLocale: { locale.current },
            cueBeforeSpeech: { await cues?.playToEnd(.listening) })
    }

    /// Recording ids are the start time in microseconds: unique, sortable, valid in object paths.
    @Sendable private static func newRecordingID() -> RecordingID {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return RecordingID(String(Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000))
    }
}
