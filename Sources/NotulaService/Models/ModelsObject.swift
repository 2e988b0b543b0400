import DBus
import Notifying
import NotulaContract
import Recording
import Speech

/// `org.notula.Notula1.Models`: the speech models on the bus, as `dbus/org.notula.Notula1.Models.xml` describes.
///
/// The store shares the bus's executor, so each handler reaches it synchronously (`assumeIsolated` states that,
/// and checks it); while the catalog is being fetched, `Install` is answered once the store has waited for it.
enum ModelsObject {
    static func interface(_ store: ModelStore) -> Interface {
        Interface(
            NotulaBus.modelsInterface,
            methods: [
                Method("Install", inputs: [Argument("locale", "s")]) { call throws(BusError) in
                    let tag = try call.argument(0, as: String.self)
                    guard !store.assumeIsolated({ $0.isFetchingCatalog }) else {
                        return .later { () throws(BusError) in
                            do throws(ModelError) { try await store.installOnceFetched(tag) } catch { throw BusError(error) }
                            return []
                        }
                    }
                    try store.assumeIsolated { store in Result { () throws(ModelError) in try store.install(tag) } }.mapError(BusError.init)
                        .get()
                    return .now([])
                },
                Method("Cancel") { _ throws(BusError) in
                    store.assumeIsolated { $0.cancel() }
                    return .now([])
                },
                Method("Remove", inputs: [Argument("locale", "s")]) { call throws(BusError) in
                    let tag = try call.argument(0, as: String.self)
                    try store.assumeIsolated { store in Result { () throws(ModelError) in try store.remove(tag) } }.mapError(BusError.init)
                        .get()
                    return .now([])
                },
                Method("Refresh") { _ throws(BusError) in
                    .later { () throws(BusError) in
                        do throws(ModelError) { try await store.refresh() } catch { throw BusError(error) }
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

/// The model store's events as the Models object's signals and property changes, and downloads that start or end
/// unfinished as banners. Told on the bus's executor, which the store shares.
struct ModelSignals: ModelListener {
    let bus: Bus
    let notifier: Notifier

    func modelsChanged(_ event: ModelEvent) {
        switch event {
        case .downloadStarted(let locale, let model, let bytes):
            emit("DownloadStarted", [.string(locale), .string(model), .uint64(bytes)])
            banner(.started(locale: locale, name: model, bytes: bytes))
            changed(["DownloadingLocale", "DownloadProgress"])
        case .downloadProgressed: changed(["DownloadProgress"])
        case .downloadFinished(let locale, let model): emit("DownloadFinished", [.string(locale), .string(model)])
        case .downloadCancelled(let locale):
            emit("DownloadCancelled", [.string(locale)])
            banner(.cancelled(locale: locale))
        case .downloadFailed(let locale, let reason):
            emit("DownloadFailed", [.string(locale), .string(reason)])
            banner(.failed(locale: locale, reason: reason))
        case .downloadEnded: changed(["DownloadingLocale", "DownloadProgress"])
        case .localesChanged(let installed, let supported):
            changed((installed ? ["InstalledLocales"] : []) + (supported ? ["SupportedLocales"] : []))
        }
    }

    private func emit(_ member: MemberName, _ arguments: [Value]) {
        bus.assumeIsolated {
            try? $0.emit(path: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface, member: member, arguments: arguments)
        }
    }

    private func banner(_ event: DownloadEvent) {
        notifier.assumeIsolated { $0.downloadChanged(event) }
    }

    private func changed(_ names: [MemberName]) {
        bus.assumeIsolated { $0.emitPropertiesChanged(path: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface, names: names) }
    }
}

extension BusError {
    init(_ error: ModelError) {
        switch error {
        case .unsupportedLocale, .notInCatalog, .notInstalled: self = .invalidArgs(error.message)
        case .notInstalledByNotula: self.init(.accessDenied, error.message)
        case .failed: self.init(.notulaFailed, error.message)
        }
    }
}
