import FoundationEssentials
import Library
import Memos
import Notifying
import Recording

/// The memo playing, for the media player: its buttons and seeks run on the library's player, on the bus thread they
/// share, and each change of the playback is shown to it.
enum MemoPlaybackWiring {
    static func controls(_ player: MemoPlayer) -> MemoPlaybackControls {
        MemoPlaybackControls(
            hold: { held in
                guard held else { return onPlaying(player) { player, id throws(MemoError) in try player.resume(id) } }
                Task {
                    guard let id = await player.playing else { return }
                    do throws(MemoError) { try await player.pause(id) } catch {
                        Log.info("The media player's pause of memo \(id): \(error)")
                    }
                }
            },
            seek: { target in onPlaying(player) { player, id throws(MemoError) in try player.seek(id, to: target.seconds) } },
            position: { .seconds(player.assumeIsolated { player in player.playing.map(player.position) ?? 0 }) },
            stop: { onPlaying(player) { $0.stop($1) } })
    }

    /// Runs `body` on the memo playing, if one is; nobody waits for a media key, so a refusal is only logged.
    private static func onPlaying(_ player: MemoPlayer, _ body: @Sendable (isolated MemoPlayer, String) throws(MemoError) -> Void) {
        player.assumeIsolated { player in
            guard let id = player.playing else { return }
            do throws(MemoError) { try body(player, id) } catch { Log.info("The media player's press on memo \(id): \(error)") }
        }
    }
}

/// Shows the media player each change of the memo playing: another memo, none, held or going on.
struct MediaPlayerFeed: MemoListener {
    let player: MediaPlayer
    let library: MemoLibrary

    func libraryChanged(_ event: MemoEvent) {
        guard case .playingChanged(let id) = event else { return }
        player.memoPlaybackChanged(id.flatMap(snapshot))
    }

    private func snapshot(_ id: String) -> MemoPlaybackSnapshot? {
        library.assumeIsolated { library in
            library.summary(id).map { memo in
                MemoPlaybackSnapshot(
                    trackPath: MemoLibrary.path(of: id),
                    // The date, never the memo's title: that holds its first words, and Metadata is broadcast.
                    title: Memo.defaultTitle(created: memo.created, timeZone: .current),
                    length: .seconds(memo.duration), paused: library.player.assumeIsolated { $0.isPaused })
            }
        }
    }
}
