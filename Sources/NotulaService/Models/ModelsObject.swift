import DBus
import NotulaContract

/// `org.notula.Notula1.Models`: the speech models on the bus, as `dbus/org.notula.Notula1.Models.xml` describes.
///
/// The store shares the bus's executor, so each handler reaches it synchronously (`assumeIsolated` states that,
/// and checks it).
enum ModelsObject {
    static func interface(_ store: ModelStore) -> Interface {
        Interface(
            NotulaBus.modelsInterface,
            methods: [
                Method("Install", inputs: [Argument("locale", "s")]) { call throws(BusError) in
                    let tag = try call.argument(0, as: String.self)
                    try store.assumeIsolated { store in Result { () throws(BusError) in try store.install(tag) } }.get()
                    return .now([])
                },
                Method("Cancel") { _ throws(BusError) in
                    store.assumeIsolated { $0.cancel() }
                    return .now([])
                },
                Method("Remove", inputs: [Argument("locale", "s")]) { call throws(BusError) in
                    let tag = try call.argument(0, as: String.self)
                    try store.assumeIsolated { store in Result { () throws(BusError) in try store.remove(tag) } }.get()
                    return .now([])
                },
                Method("Refresh") { _ throws(BusError) in
                    .later { () throws(BusError) in
                        try await store.refresh()
                        return []
                    }
                },
            ],
            properties: [
                Property("SupportedLocales", "as") { .array(element: "s", store.assumeIsolated { $0.supportedLocales }.map(Value.string)) },
                Property("InstalledLocales", "as") { .array(element: "s", store.assumeIsolated { $0.installedLocales }.map(Value.string)) },
                Property("DownloadingLocale", "s") { .string(store.assumeIsolated { $0.downloadingLocale }) },
                Property("DownloadProgress", "d") { .double(store.assumeIsolated { $0.downloadProgress }) },
            ],
            signals: [
                SignalDeclaration(
                    "DownloadStarted", [Argument("locale", "s"), Argument("model", "s"), Argument("total_bytes", "t")]),
                SignalDeclaration("DownloadFinished", [Argument("locale", "s"), Argument("model", "s")]),
                SignalDeclaration("DownloadCancelled", [Argument("locale", "s")]),
                SignalDeclaration("DownloadFailed", [Argument("locale", "s"), Argument("message", "s")]),
            ])
    }

}
