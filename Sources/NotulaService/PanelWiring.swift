import DBus
import Models
import Notifying
import Recording
import Speech

/// The tray's language items: the pick of the recorder's `Locale` property, which nobody waits for, and the locales on
/// offer, on the executor they share.
enum PanelWiring {
    static func localeControls(_ locale: LocaleChoice, models: ModelStore, bus: Bus) -> LocaleControls {
        LocaleControls(
            pick: { tag throws(BusError) in
                // Picked while the catalog is fetched: the menu has nobody waiting for the answer.
                guard case .later(let work) = try RecorderObject.pickLocale(tag, locale: locale, models: models, bus: bus) else { return }
                Task {
                    do throws(BusError) { _ = try await work() } catch { Log.warning("The panel's pick of \(tag): \(error.message)") }
                }
            },
            options: {
                models.assumeIsolated { models in
                    LocaleOptions(current: locale.current, supported: models.supportedLocales, installed: Set(models.installedLocales))
                }
            })
    }
}
