import DBus
import Delivering

/// The ways text reaches the user in a session: the portal, the tools found on this machine, the clipboard.
enum DeliveryWiring {
    static func ways(in session: DesktopSession, bus: Bus, paths: Paths) -> DeliveryWays {
        DeliveryWays(typing: [:], clipboard: .failure(DeliveryError("No clipboard is reachable in this session.")))
    }
}
