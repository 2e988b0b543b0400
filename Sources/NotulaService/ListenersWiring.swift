import DBus
import Dictating
import Notifying
import NotulaContract

/// Who hears the recordings as they happen, told wherever the user looks: `Listeners` on the bus, the tray's tooltip
/// and the live notification, at each reader that comes or goes.
enum ListenersWiring {
    static func follow(_ changes: ListenerChanges, audio: AudioReaders, text: TextWatchers, bus: Bus, tray: TrayItem, notifier: Notifier) {
        Task {
            for await _ in changes.changes {
                // The surfaces first: a client that hears the change finds them telling it already.
                let programs = programs(current(audio: audio, text: text))
                await tray.heard(by: programs)
                await notifier.heard(by: programs)
                await bus.emitPropertiesChanged(path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, names: [.listeners])
            }
        }
    }

    /// Every reader of either stream, first come first.
    static func current(audio: AudioReaders, text: TextWatchers) -> [Listener] {
        (audio.listeners + text.listeners).sorted { $0.since < $1.since }
    }

    /// The programs that listen, each named once, first come first.
    static func programs(_ listeners: [Listener]) -> [String] {
        var seen = Set<String>()
        return listeners.map(\.caller.program).filter { seen.insert($0).inserted }
    }
}
