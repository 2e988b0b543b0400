import Memos

/// Hands the library's changes to several listeners, in order: the bus's signals first, then the panels.
struct MemoListeners: MemoListener {
    let listeners: [any MemoListener]

    func libraryChanged(_ event: MemoEvent) { listeners.forEach { $0.libraryChanged(event) } }
}
