import Audio
import DBus
import Notifying
import Recording

/// What shows the flow beside the bus and the notifications, and commands it through the controls: the tray, the
/// media player, the shortcuts; and what follows it quietly: other players paused, the output muted, the cues.
struct Panels {
    let tray: TrayItem
    let mediaPlayer: MediaPlayer?
    let shortcuts: GlobalShortcuts?
    let outputMute: OutputMute
    let cues: Cues?
    /// Each hears every transition, in this order, after the bus signals and the notifications.
    let reporters: [any Reporting]

    static func make(
        settings: Settings, paths: Paths, environment: [String: String], bus: ServiceBus, controls: RecorderLink,
        locales: LocaleControls, mediaPlayer: MediaPlayer?
    ) -> Panels {
        let tray = TrayItem(
            bus: bus.trayBus, texts: .forEnvironment(environment), controls: controls, locales: locales, log: { Log.info($0) })
        let mediaPause = settings.pauseMedia == false ? nil : MediaPause(bus: bus.bus, own: MediaPlayer.name, log: { Log.info($0) })
        // Always made: a sink a killed notulad left muted is unmuted even once the setting is off.
        let outputMute = OutputMute(
            record: paths.mutedOutputs, server: nil, chosenSink: environment["PULSE_SINK"], log: { Log.info($0) })
        outputMute.restoreLeftMuted()
        let muting = settings.muteOutput == true ? PanelReporter { outputMute.heard($0.state) } : nil
        let cues = settings.sounds == false ? nil : Cues(environment: environment, log: { Log.info($0) })
        // A user who said no in the desktop's dialog is not asked again at every start.
        let shortcuts =
            settings.globalShortcuts == false
            ? nil
            : GlobalShortcuts(
                bus: bus.bus, appID: "org.notula.Notula", controls: controls, log: { Log.info($0) },
                declined: { Settings.update(at: paths.settingsFile) { $0.globalShortcuts = false } })
        let reporters: [any Reporting] =
            [tray.reporter]
            + [mediaPlayer?.reporter, mediaPause?.reporter, muting, cues?.reporter, shortcuts?.reporter].compactMap { $0 }
        return Panels(tray: tray, mediaPlayer: mediaPlayer, shortcuts: shortcuts, outputMute: outputMute, cues: cues, reporters: reporters)
    }

    /// Exported, registered and bound once the recorder they command is connected.
    func start() async {
        await tray.start()
        await mediaPlayer?.start()
        await shortcuts?.start()
    }
}
