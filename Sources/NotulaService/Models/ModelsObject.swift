import DBus
import Models
import Notifying
import NotulaContract
import Recording
import Speech

/// `org.notula.Notula1.Models`: the speech models on the bus, as `dbus/org.notula.Notula1.Models.xml` describes.
///
/// The store shares the bus's executor, so each handler reaches it synchronously (`assumeIsolated` states that,
/// and checks it); while the catalog is being fetched, `Install` is answered once the store has waited for it.
enum ModelsObject {
    static func interface(_ store: ModelStore, memory: ModelMemory) -> Interface {
        Interface(
            NotulaBus.modelsInterface,
            methods: [
                NotulaBus.Models.method(.install, inputs: [Argument("locale", "s")]) { call throws(BusError) in
                    let tag = try call.argument(0, as: String.self)
                    guard !store.assumeIsolated({ $0.isFetchingCatalog }) else {
                        return .later { () throws(BusError) in
                            do throws(ModelError) { try await store.installOnceFetched(tag) } catch { throw BusError(error) }
                            return []
                        }
                    }
                    try now(store) { store throws(ModelError) in try store.install(tag) }
                    return .now([])
                },
                NotulaBus.Models.method(.cancel) { _ throws(BusError) in
                    store.assumeIsolated { $0.cancel() }
                    return .now([])
                },
                NotulaBus.Models.method(.remove, inputs: [Argument("locale", "s")]) { call throws(BusError) in
                    let tag = try call.argument(0, as: String.self)
                    try now(store) { store throws(ModelError) in try store.remove(tag) }
                    return .now([])
                },
                NotulaBus.Models.method(.installModel, inputs: [Argument("locale", "s"), Argument("model", "s")]) { call throws(BusError) in
                    let (tag, model) = (try call.argument(0, as: String.self), try call.argument(1, as: String.self))
                    guard !store.assumeIsolated({ $0.isFetchingCatalog }) else {
                        return .later { () throws(BusError) in
                            do throws(ModelError) { try await store.installOnceFetched(tag, model: model) } catch { throw BusError(error) }
                            return []
                        }
                    }
                    try now(store) { store throws(ModelError) in try store.install(tag, model: model) }
                    return .now([])
                },
                NotulaBus.Models.method(.useModel, inputs: [Argument("locale", "s"), Argument("model", "s")]) { call throws(BusError) in
                    let (tag, model) = (try call.argument(0, as: String.self), try call.argument(1, as: String.self))
                    try now(store) { store throws(ModelError) in try store.use(tag, model: model) }
                    return .now([])
                },
                NotulaBus.Models.method(.removeModel, inputs: [Argument("locale", "s"), Argument("model", "s")]) { call throws(BusError) in
                    let (tag, model) = (try call.argument(0, as: String.self), try call.argument(1, as: String.self))
                    try now(store) { store throws(ModelError) in try store.remove(tag, model: model) }
                    return .now([])
                },
                NotulaBus.Models.method(.refresh) { _ throws(BusError) in
                    .later { () throws(BusError) in
                        do throws(ModelError) { try await store.refresh() } catch { throw BusError(error) }
                        return []
                    }
                },
            ],
            properties: [
                NotulaBus.Models.property(.supportedLocales, "as") {
                    .array(element: "s", store.assumeIsolated { $0.supportedLocales }.map(Value.string))
                },
                NotulaBus.Models.property(.installedLocales, "as") {
                    .array(element: "s", store.assumeIsolated { $0.installedLocales }.map(Value.string))
                },
                NotulaBus.Models.property(.downloadingLocale, "s") { .string(store.assumeIsolated { $0.downloadingLocale }) },
                NotulaBus.Models.property(.downloadProgress, "d") { .double(store.assumeIsolated { $0.downloadProgress }) },
                NotulaBus.Models.property(.availableModels, "a(ssstb)") {
                    .array(
                        element: "(ssstb)",
                        store.assumeIsolated { $0.availableModels }.map {
                            .structure([
                                .string($0.locale), .string($0.name), .string($0.kind.rawValue), .uint64($0.bytes), .boolean($0.installed),
                            ])
                        })
                },
                NotulaBus.Models.property(.measuredMemory, "a{st}", emitsChanged: .false) {
                    .dictionary(
                        key: "s", value: "t",
                        memory.all.sorted { $0.key < $1.key }.map { DictionaryEntry(key: .string($0.key), value: .uint64($0.value)) })
                },
                NotulaBus.Models.property(.modelsInUse, "a{ss}") { dictionary(store.assumeIsolated { $0.modelsInUse }) },
                NotulaBus.Models.property(.accurateModels, "a{ss}") { dictionary(store.assumeIsolated { $0.accurateChoices.all }) },
            ],
            signals: [
                NotulaBus.Models.signal(.downloadStarted, [Argument("locale", "s"), Argument("model", "s"), Argument("total_bytes", "t")]),
                NotulaBus.Models.signal(.downloadFinished, [Argument("locale", "s"), Argument("model", "s")]),
                NotulaBus.Models.signal(.downloadCancelled, [Argument("locale", "s")]),
                NotulaBus.Models.signal(.downloadFailed, [Argument("locale", "s"), Argument("message", "s")]),
            ])
    }
}

/// Runs a store request in the call's job: the store shares the bus's executor.
private func now(_ store: ModelStore, _ request: @Sendable (isolated ModelStore) throws(ModelError) -> Void) throws(BusError) {
    try store.assumeIsolated { store in Result { () throws(ModelError) in try request(store) } }.mapError(BusError.init).get()
}

/// The model store's events as the Models object's signals and property changes, and downloads that start or end
/// unfinished as banners. Told on the bus's executor, which the store shares.
struct ModelSignals: ModelListener {
    let bus: Bus
    let notifier: Notifier

    func modelsChanged(_ event: ModelEvent) {
        switch event {
        case .downloadStarted(let locale, let model, let bytes):
            emit(.downloadStarted, [.string(locale), .string(model), .uint64(bytes)])
            banner(.started(locale: locale, name: model, bytes: bytes))
            changed([.downloadingLocale, .downloadProgress])
        case .downloadProgressed: changed([.downloadProgress])
        case .downloadFinished(let locale, let model): emit(.downloadFinished, [.string(locale), .string(model)])
        case .downloadCancelled(let locale):
            emit(.downloadCancelled, [.string(locale)])
            banner(.cancelled(locale: locale))
        case .downloadFailed(let locale, let reason):
            emit(.downloadFailed, [.string(locale), .string(reason)])
            banner(.failed(locale: locale, reason: reason))
        case .downloadEnded: changed([.downloadingLocale, .downloadProgress])
        case .localesChanged(let installed, let supported):
            changed((installed ? [.installedLocales, .availableModels, .modelsInUse] : []) + (supported ? [.supportedLocales] : []))
        case .catalogChanged: changed([.availableModels])
        case .inUseChanged: changed([.modelsInUse, .accurateModels])
        }
    }

    private func emit(_ signal: NotulaBus.Models.Signal, _ arguments: [Value]) {
        bus.assumeIsolated {
            try? $0.emit(path: NotulaBus.modelsPath, interface: NotulaBus.Models.self, signal: signal, arguments: arguments)
        }
    }

    private func banner(_ event: DownloadEvent) {
        notifier.assumeIsolated { $0.downloadChanged(event) }
    }

    private func changed(_ names: [NotulaBus.Models.Property]) {
        bus.assumeIsolated { $0.emitPropertiesChanged(path: NotulaBus.modelsPath, interface: NotulaBus.Models.self, names: names) }
    }
}

/// A locale → name map as `a{ss}`, sorted by locale.
private func dictionary(_ names: [String: String]) -> Value {
    .dictionary(
        key: "s", value: "s", names.sorted { $0.key < $1.key }.map { DictionaryEntry(key: .string($0.key), value: .string($0.value)) })
}

extension BusError {
    init(_ error: ModelError) {
        switch error {
        case .unsupportedLocale, .notInCatalog, .notInstalled, .noSuchModel: self = .invalidArgs(error.message)
        case .notInstalledByNotula: self.init(.accessDenied, error.message)
        case .failed: self.init(.notulaFailed, error.message)
        }
    }
}
