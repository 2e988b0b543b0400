import Foundation

// What notulad costs, read from /proc while it runs.

struct ProcessSample {
    /// User and system CPU time of all threads, ended ones included, in ns (10 ms ticks).
    let cpuNanoseconds: Int
    /// Context switches of each thread alive at the moment of the sample.
    let switchesByThread: [String: Int]
    let rssKilobytes: Int
    let threads: Int
}

func sample(_ pid: pid_t) -> ProcessSample {
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
    let ticks = fields.count > 12 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
    let nanoseconds = ticks * 1_000_000_000 / sysconf(Int32(_SC_CLK_TCK))
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    let switches = Dictionary(
        uniqueKeysWithValues: tasks.map { task in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            return (task, field("voluntary_ctxt_switches", status) + field("nonvoluntary_ctxt_switches", status))
        })
    return ProcessSample(
        cpuNanoseconds: nanoseconds, switchesByThread: switches, rssKilobytes: residentKilobytes(pid), threads: tasks.count)
}

/// VmRSS: what the process holds in memory now.
func residentKilobytes(_ pid: pid_t) -> Int {
    field("VmRSS", (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? "")
}

/// The shared libraries mapped into the process, by file name (`libc.so.6`), each once.
func mappedLibraries(_ pid: pid_t) -> [String] {
    // Read to its end: String(contentsOfFile:) stops at the first page of a /proc file, whose size is 0.
    let maps = String(decoding: FileHandle(forReadingAtPath: "/proc/\(pid)/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    let names = maps.split(separator: "\n").compactMap { $0.split(separator: "/").last.map(String.init) }.filter { $0.contains(".so") }
    return Array(Set(names)).sorted()
}

func field(_ name: String, _ status: String) -> Int {
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
    return 0
}
