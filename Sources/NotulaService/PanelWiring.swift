import DBus
import Models
import Notifying
import Recording
import Speech

/// What the panels (the tray item, the media player) send back: the recorder's commands, which nobody waits
/// for (a failure is reported as `Failed` and a banner; a refusal is the click's error), and the locale
/// pick of its `Locale` property, on the executor they share.
enum PanelWiring {
    static func controls(_ recorder: Recorder, locale: LocaleChoice, models: ModelStore, bus: Bus) -> PanelControls {
        PanelControls(
            perform: { action throws(BusError) in
                let outcome = recorder.assumeIsolated { recorder in
                    Result { () throws(RecordingError) in _ = try recorder.perform(action, for: .nobody) }
                }
                do throws(RecordingError) { try outcome.get() } catch { throw BusError(error) }
            },
            pickLocale: { tag throws(BusError) in
                // Picked while the catalog is fetched: the menu has nobody waiting for the answer.
                guard case .later(let work) = try RecorderObject.pickLocale(tag, locale: locale, models: models, bus: bus) else { return }
                Task {
                    do throws(BusError) { _ = try await work() } catch { Log.warning("The panel's pick of \(tag): \(error.message)") }
                }
            },
            locales: {
                models.assumeIsolated { models in
                    LocaleOptions(current: locale.current, supported: models.supportedLocales, installed: Set(models.installedLocales))
                }
            })
    }
}
