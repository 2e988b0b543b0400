import Recording

/// Keeps the user's clipboard across a one-time paste: every type it offers read and written to `KeptClipboard`
/// before the paste takes the clipboard, put back after it (pasted or not), and at notulad's next start if it died
/// in between — unless something else was copied meanwhile, which is left as it is. Nothing of the texts is logged.
public struct ClipboardKeeper: Sendable {
    let clipboard: any ClipboardOwner
    let file: KeptClipboard?
    let timeLimit: Duration

    /// - Parameters:
    ///   - environment: the session's, whose `XDG_RUNTIME_DIR` holds the file (without one, the clipboard is kept
    ///     in memory only).
    init(clipboard: any ClipboardOwner, environment: [String: String], timeLimit: Duration) {
        self.clipboard = clipboard
        self.file = KeptClipboard(runtimeFolder: environment["XDG_RUNTIME_DIR"])
        self.timeLimit = timeLimit
    }

    /// How long reading the clipboard may take in all: the paste waits for it.
    static let readTime = Duration.seconds(1)

    /// Reads the clipboard and writes it down, before Notula offers `text` on it.
    func keep(offering text: String) async -> KeptClipboard.Kept {
        let contents = await clipboard.contents(timeLimit: Self.readTime)
        let kept = KeptClipboard.Kept(contents: contents, offer: OfferMark(of: text))
        guard let file else {
            Log.warning("No XDG_RUNTIME_DIR: the clipboard is kept in memory only during a paste")
            return kept
        }
        do throws(FileError) {
            return try file.keep(contents, offering: text)
        } catch {
            Log.warning("The clipboard is kept in memory only during a paste: \(error)")
            return kept
        }
    }

    /// Puts `kept` back once the paste is over, unless the clipboard holds neither Notula's offer nor nothing nor
    /// the user's kept text: something copied meanwhile. The file is removed either way.
    func putBack(_ kept: KeptClipboard.Kept) async {
        defer { file?.remove() }
        let types = await clipboard.types()
        if !types.isEmpty {
            let text = await clipboard.text(timeLimit: Self.readTime)
            guard let text, kept.offer.marks(text) || text == kept.contents.text else {
                return Log.info("The clipboard changed during a paste: left as it is, not put back")
            }
        }
        do throws(DeliveryError) {
            _ = try await clipboard.take(.putBack(kept.contents), timeLimit: timeLimit)
        } catch {
            Log.warning("The clipboard could not be put back after a paste: \(error.message)")
        }
    }

    /// Puts back a clipboard that a notulad which died during a one-time paste left in the file, under the same
    /// condition as `putBack`.
    public func restoreLeft() async {
        guard let file, let kept = file.read() else {
            file?.remove()
            return
        }
        Log.info("A paste was cut short before notulad stopped: putting the clipboard back (\(kept.contents.summary))")
        await putBack(kept)
    }
}

extension ClipboardContents {
    /// The types and sizes, for the journal: never the content.
    var summary: String {
        items.isEmpty ? "it was empty" : items.map { "\($0.type) \($0.bytes.count) B" }.joined(separator: ", ")
    }
}
