import DBus
import Models
import NotulaContract
import Recording

/// The name owned once the objects are there — an activated service receives calls the moment it owns it — with
/// the catalogs fetched again when stale and the current locale's model installed when missing.
enum NameClaim {
    static func claim(
        _ bus: ServiceBus, speech: SpeechParts, models: ModelStore, locale: LocaleChoice, source: String?, paths: Paths
    ) async throws(ServiceExit) {
        // Once a day at most, in a process of its own for the time of the fetch. Begun before the name is
        // owned, so that the first pick or Install waits for the catalog rather than refusing.
        let catalogIsStale = speech.catalogIsStale
        if catalogIsStale { await models.startRefresh() }
        if bus.takeOver == .nobodyOwnsIt, let status = await NameOwnership.claim(on: bus.bus) { throw ServiceExit(status: status) }
        await bus.bus.answerHeldCalls()
        let installed = await models.installedLocales
        Log.info(
            "Ready on the session bus as \(NotulaBus.name) (\(await bus.bus.uniqueName)); recording from \(source ?? "the default source") into \(paths.recordings); transcribing in \(locale.current) (models here: \(installed.isEmpty ? "none" : installed.joined(separator: ", ")))"
        )
        Task {
            if catalogIsStale {
                do throws(ModelError) { try await models.refresh() } catch { Log.warning(error.message) }
            }
            await models.installLiveModelIfMissing(locale.current)
        }
    }
}
