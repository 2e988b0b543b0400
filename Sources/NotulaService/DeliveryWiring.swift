import DBus
import Delivering

/// The ways text reaches the user in a session: the RemoteDesktop portal, the helper programs found on this
/// machine, the clipboard. Found again when the session changes.
enum DeliveryWiring {
    /// Where helper programs are looked for: notulad's `PATH` (a D-Bus-activated service may have a short one), then
    /// the folders Debian installs them in.
    static func searchPath(_ environment: [String: String]) -> String {
        [environment["PATH"], "/usr/local/bin:/usr/bin:/bin"].compactMap { $0 }.joined(separator: ":")
    }

    /// At start, before any delivery: the clipboard a notulad killed during a one-time paste left is put back.
    static func restoreLeftClipboard(before dictation: Dictation, session: SessionEnvironment, searchPath: String) async {
        await dictation.first {
            await HelperTargets(session: await session.read(), searchPath: searchPath).clipboardKeeper()?.restoreLeft()
        }
    }

    static func ways(in session: DesktopSession, bus: Bus, paths: Paths, searchPath: String) async -> DeliveryWays {
        let helpers = HelperTargets(session: session, searchPath: searchPath)
        let pauses = PortalKeyboard.keyPauses(for: session)
        let keyboard =
            await PortalKeyboard.isAvailable(on: bus)
            ? PortalKeyboard(
                bus: bus, restoreTokenFile: paths.config + "/remote-desktop-token", keyInterval: pauses.keyInterval,
                modifierPause: pauses.modifierPause) : nil
        let portal: Result<any TextTarget, DeliveryError> =
            if let keyboard { .success(keyboard) } else {
                .failure(
                    DeliveryError(
                        "No RemoteDesktop portal with a keyboard is on the session bus: install xdg-desktop-portal and your desktop's "
                            + "backend (xdg-desktop-portal-gnome or xdg-desktop-portal-kde)."))
            }
        // GNOME on Wayland gives the clipboard to no program but through its portal.
        var clipboard = helpers.clipboard()
        if session.kind == .wayland, session.isDesktop("GNOME"), let keyboard, await PortalKeyboard.offersClipboard(on: bus) {
            clipboard = .success(PortalCopyTarget(keyboard: keyboard))
        }
        // KWin tells the focus only to a script of its own, loaded once per session found.
        let kwin =
            session.kind == .wayland && session.isDesktop("KDE") ? await KWinFocus.start(on: bus, scriptFolder: paths.data + "/kwin") : nil
        // Each way as if forced: the automatic choice only picks the one the session's kind calls for.
        return DeliveryWays(
            typing: [
                .portal: portal, .virtualKeyboard: helpers.virtualKeyboard(forced: true), .xtest: helpers.xtest(forced: true),
                .paste: helpers.paste(portal: keyboard),
            ],
            clipboard: clipboard, focus: helpers.focusFinder(bus: bus, kwin: kwin))
    }
}
