import DBus
import Dictating
import Library
import Memos
import Models
import NotulaContract
import Recording
import Speech

/// The memos on the bus: the object manager, the memos' folder (each memo an object made from its row
/// when a call names it, so that a library of any size costs no memory) and the Library, with the
/// library's changes as their signals.
struct LibraryExport: MemoListener {
    let bus: Bus
    let library: MemoLibrary
    /// The methods every memo object shares, made once.
    let memoMethods: [Method]

    /// Opens the library and exports its objects in the same job on the bus thread, so that the memos
    /// recovered at start are transcribed, and their news signalled, only once their objects are there.
    /// - Parameter others: who else hears the library's changes, after the bus's signals.
    static func open(
        _ library: isolated MemoLibrary, on bus: Bus, writing: TextWriting, models: ModelStore, gate: AccessGate,
        alsoTelling others: [any MemoListener]
    ) throws(MemoError) {
        let export = LibraryExport(
            bus: bus, library: library, memoMethods: MemoObject.methods(library, writing: writing, models: models, gate: gate))
        try library.open(reporting: MemoListeners(listeners: [export] + others))
        bus.assumeIsolated { bus in
            bus.exportObjectManager(at: NotulaBus.rootPath)
            bus.exportSubtree(NotulaBus.memosPath, ObjectSubtree(interfaces: export.memoInterfaces, forEach: export.forEachMemoObject))
            bus.export(NotulaBus.libraryPath, interfaces: [LibraryObject.interface(library, gate: gate)])
        }
    }

    func libraryChanged(_ event: MemoEvent) {
        bus.assumeIsolated { bus in
            switch event {
            case .added(let memo): bus.announceAdded(at: MemoLibrary.path(of: memo.id), [memoObject(memo)])
            case .changed(let id, .title): memoChanged(id, [.title], on: bus)
            case .changed(let id, .progress): memoChanged(id, [.status, .duration, .failure], on: bus)
            case .changed(let id, .transcribed):
                memoChanged(id, [.status, .duration, .failure, .title, .locale, .model, .pendingUtterances, .utteranceModels], on: bus)
            case .removed(let id): bus.announceRemoved(at: MemoLibrary.path(of: id), [NotulaBus.memoInterface])
            case .countChanged: libraryChanged([.count], on: bus)
            case .playingChanged: libraryChanged([.playing, .playbackState], on: bus)
            }
        }
    }

    private func memoChanged(_ id: String, _ names: [NotulaBus.Memo.Property], on bus: isolated Bus) {
        bus.emitPropertiesChanged(path: MemoLibrary.path(of: id), interface: NotulaBus.Memo.self, names: names)
    }

    private func libraryChanged(_ names: [NotulaBus.Library.Property], on bus: isolated Bus) {
        bus.emitPropertiesChanged(path: NotulaBus.libraryPath, interface: NotulaBus.Library.self, names: names)
    }

    private func memoObject(_ row: Memo) -> Interface { MemoObject.interface(row, methods: memoMethods, library: library) }

    /// The memo object named `id`, made from its row; nil when there is no such memo.
    private func memoInterfaces(_ id: String) -> [Interface]? {
        library.assumeIsolated { library in library.summary(id) }.map { [memoObject($0)] }
    }

    /// Hands every memo object to `body`, made from its row, a page of rows at a time: for the
    /// object manager's full listing, written into its reply as it goes.
    private func forEachMemoObject(_ body: (String, [Interface]) -> Bool) {
        var last: Memo?
        while true {
            let page = library.assumeIsolated { library in
                do throws(MemoError) { return try library.summaries(after: last, limit: 500) } catch {
                    Log.error("Cannot list the memos: \(error)")
                    return []
                }
            }
            for memo in page { guard body(memo.id, [memoObject(memo)]) else { return } }
            guard let next = page.last else { return }
            last = next
        }
    }
}
