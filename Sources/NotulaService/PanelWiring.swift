import DBus
import Models
import Notifying
import Recording

/// The tray's language items: the pick of the recorder's `Locale` property, which nobody waits for, and the locales on
/// offer, on the executor they share.
enum PanelWiring {
    static func localeControls(_ locale: LocaleChoice, models: ModelStore) -> LocaleControls {
        LocaleControls(
            pick: { tag throws(BusError) in
                let pick: LocaleChoice.Pick
                do throws(ModelError) { pick = try locale.pick(tag, servedBy: models) } catch { throw BusError(error) }
                // Picked while the catalog is fetched: the menu has nobody waiting for the answer.
                guard case .onceFetched(let work) = pick else { return }
                Task {
                    do throws(ModelError) { try await work() } catch { Log.warning("The panel's pick of \(tag): \(error.message)") }
                }
            },
            options: {
                models.assumeIsolated { models in
                    LocaleOptions(current: locale.current, supported: models.supportedLocales, installed: Set(models.installedLocales))
                }
            })
    }
}
