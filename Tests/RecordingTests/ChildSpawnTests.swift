import Glibc
import Recording
import Testing

/// The one way notulad starts and waits for a program, with real processes.
@Suite struct ChildSpawnTests {
    /// A launched program nobody waits for is reaped when it ends: it leaves no zombie in the process table.
    @Test func aLaunchedProgramIsReapedOnceItEnds() async throws {
        let child = try ChildSpawn.launch(
            "sh", ["-c", "exit 3"], standard: [nil, nil, nil], environment: ["PATH=/usr/bin:/bin"], searchingPath: true
        ).get()
        let deadline = ContinuousClock.now + .seconds(10)
        // A zombie keeps its /proc entry until it is reaped.
        while access("/proc/\(child)", F_OK) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(access("/proc/\(child)", F_OK) != 0, "process \(child) is still in the process table: \(state(of: child))")
    }

    /// A child seen ended is left for `reap` to say how: `hasEnded` and `awaitEnd` never take its status.
    @Test func anEndedChildIsSeenEndedThenReapedWithItsStatus() throws {
        let child = try ChildSpawn.start(
            "sh", ["-c", "kill -TERM $$"], standard: [nil, nil, nil], environment: [], defaultSignals: [SIGTERM], searchingPath: true
        ).get()
        ChildSpawn.awaitEnd(child)
        #expect(ChildSpawn.hasEnded(child))
        #expect(state(of: child) == "Z", "seen ended, not reaped yet")
        let exit = ChildSpawn.reap(child)
        #expect(exit == .signalled(SIGTERM) && exit.shellStatus == 128 + SIGTERM)
    }

    /// A program still open for writing in another process is busy (`ETXTBSY`) until that process ends: it starts
    /// once it has, and one that stays busy fails with that error.
    @Test func aProgramBusyForAMomentStartsOnceItIsClosedAndOneBusyForGoodFails() throws {
        let folder = "/tmp/notula-spawn-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(folder, 0o700)
        let program = folder + "/program"
        defer {
            unlink(program)
            rmdir(folder)
        }
        let writer = open(program, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o700)
        try #require(writer >= 0)
        _ = "#!/bin/sh\nexit 7\n".withCString { write(writer, $0, strlen($0)) }

        // A child holds the program's descriptor for a tenth of a second, as one forked while it was written does.
        let holder = try ChildSpawn.start(
            "sleep", ["0.1"], standard: [nil, writer, nil], environment: ["PATH=/usr/bin:/bin"], searchingPath: true
        ).get()
        close(writer)
        let started = ChildSpawn.start(program, [], standard: [nil, nil, nil], environment: [])
        #expect(try ChildSpawn.reap(started.get()) == .exited(7))
        _ = ChildSpawn.reap(holder)

        let keptOpen = open(program, O_WRONLY | O_CLOEXEC)
        defer { close(keptOpen) }
        let busy = ChildSpawn.start(program, [], standard: [nil, nil, nil], environment: [])
        #expect { try busy.get() } throws: { ($0 as? SpawnError)?.code == ETXTBSY }
    }

    /// The state letter of `/proc/PID/stat`: `Z` for a zombie; empty once the process is gone.
    private func state(of process: pid_t) -> String {
        guard let file = fopen("/proc/\(process)/stat", "r") else { return "" }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        guard fgets(&line, Int32(line.count), file) != nil else { return "" }
        let text = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard let close = text.lastIndex(of: ")") else { return "" }
        return String(text[text.index(close, offsetBy: 2)...].prefix(1))
    }
}
