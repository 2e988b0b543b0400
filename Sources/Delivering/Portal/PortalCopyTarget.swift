/// The clipboard on GNOME on Wayland, which lets no program set it but through its portal: the RemoteDesktop
/// session's clipboard (GNOME 48), where the text stays after notulad's session ends, as GNOME keeps a copy.
public struct PortalCopyTarget: TextTarget {
    public var method: DeliveryMethod { .clipboard }
    private let keyboard: PortalKeyboard

    public init(keyboard: PortalKeyboard) { self.keyboard = keyboard }

    public func deliver(_ text: String) async throws(DeliveryError) { try await keyboard.copy(text) }
}
