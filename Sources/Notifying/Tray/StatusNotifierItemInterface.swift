import DBus

/// `org.kde.StatusNotifierItem`, as the freedesktop StatusNotifierItem specification has it: what a panel
/// shows of the tray item, and its clicks.
enum StatusNotifierItemInterface {
    static let name: InterfaceName = "org.kde.StatusNotifierItem"

    static func make(_ item: TrayItem) -> Interface {
        @Sendable func shown() -> TrayPresentation { item.assumeIsolated { $0.shown } }
        let position = [Argument("x", "i"), Argument("y", "i")]
        let noPixmaps: Value = Value.array(element: "(iiay)", [])
        return Interface(
            name,
            methods: [
                // The primary click records, pauses or resumes, as the recorder's Toggle does.
                Method("Activate", inputs: position) { _ throws(BusError) in
                    try item.assumeIsolated { item in Result { () throws(BusError) in try item.activated() } }.get()
                    return .now([])
                },
                // The host shows the menu itself (the Menu property); these clicks do nothing more.
                Method("SecondaryActivate", inputs: position) { _ in .now([]) },
                Method("ContextMenu", inputs: position) { _ in .now([]) },
                Method("Scroll", inputs: [Argument("delta", "i"), Argument("orientation", "s")]) { _ in .now([]) },
            ],
            properties: [
                Property("Category", "s", emitsChanged: .const) { .string("ApplicationStatus") },
                Property("Id", "s", emitsChanged: .const) { .string("org.notula.Notula") },
                Property("Title", "s", emitsChanged: .const) { .string("Notula") },
                Property("Status", "s", emitsChanged: .false) { .string(shown().status.rawValue) },
                Property("WindowId", "i", emitsChanged: .const) { .int32(0) },
                Property("IconName", "s", emitsChanged: .false) { .string(shown().iconName) },
                Property("IconPixmap", "a(iiay)", emitsChanged: .const) { noPixmaps },
                Property("OverlayIconName", "s", emitsChanged: .const) { .string("") },
                Property("OverlayIconPixmap", "a(iiay)", emitsChanged: .const) { noPixmaps },
                Property("AttentionIconName", "s", emitsChanged: .const) { .string("") },
                Property("AttentionIconPixmap", "a(iiay)", emitsChanged: .const) { noPixmaps },
                Property("AttentionMovieName", "s", emitsChanged: .const) { .string("") },
                Property("ToolTip", "(sa(iiay)ss)", emitsChanged: .false) {
                    let shown = shown()
                    return .structure([.string(shown.iconName), noPixmaps, .string(shown.toolTipTitle), .string(shown.toolTipBody)])
                },
                Property("ItemIsMenu", "b", emitsChanged: .const) { .boolean(false) },
                Property("Menu", "o", emitsChanged: .const) { .objectPath(TrayItem.menuPath) },
            ],
            signals: [
                SignalDeclaration("NewTitle"),
                SignalDeclaration("NewIcon"),
                SignalDeclaration("NewAttentionIcon"),
                SignalDeclaration("NewOverlayIcon"),
                SignalDeclaration("NewToolTip"),
                SignalDeclaration("NewStatus", [Argument("status", "s")]),
            ])
    }
}
