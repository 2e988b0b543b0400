import DBus
import NotulaContract
import Recording

/// The session bus: the service's connection, the tray's and the media player's beside it, the losses of the name
/// followed, and the previous owner replaced when `--replace` asks.
struct ServiceBus {
    let bus: Bus
    let trayBus: Bus
    let playerBus: Bus?
    let losses: AsyncStream<Message>
    let takeOver: NameOwnership.TakeOver

    static func connect(_ options: ServiceOptions, settings: Settings) async throws(ServiceExit) -> ServiceBus {
        let bus: Bus
        do { bus = try await Bus.connect(.session) } catch {
            Log.error("Cannot connect to the session bus: \(error.message)")
            throw ServiceExit(status: 1)
        }
        // The tray item and the media player on connections of their own: a bus filter that lets a sandboxed app
        // talk to `org.kde.*` or `org.mpris.MediaPlayer2.*` grants it their names, never the recorder's.
        let trayBus: Bus
        let playerBus: Bus?
        do {
            trayBus = try await Bus.connect(.session, sharingThreadOf: bus)
            playerBus = settings.mpris == true ? try await Bus.connect(.session, sharingThreadOf: bus) : nil
        } catch {
            Log.error("Cannot connect the tray item or the media player to the session bus: \(error.message)")
            throw ServiceExit(status: 1)
        }
        let losses: AsyncStream<Message>
        do { losses = try await NameOwnership.losses(on: bus) } catch {
            Log.error("Cannot follow the ownership of \(NotulaBus.name): \(error.message)")
            throw ServiceExit(status: 1)
        }
        // Taking over comes before the library opens: the replaced instance first keeps its recording in it.
        // Calls that reach the name meanwhile wait for the objects.
        if options.replace { await bus.holdCalls() }
        let takeOver = options.replace ? await NameOwnership.takeOver(on: bus) : .nobodyOwnsIt
        if case .failed(let status) = takeOver { throw ServiceExit(status: status) }
        return ServiceBus(bus: bus, trayBus: trayBus, playerBus: playerBus, losses: losses, takeOver: takeOver)
    }
}
