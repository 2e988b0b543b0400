import FoundationEssentials
import Glibc

/// Hands memory freed inside the process back to the system: glibc keeps freed heap pages for
/// reuse, so after a peak (a model released) the resident size would otherwise stay at the peak.
func returnFreedMemory() { _ = mallocTrim(0) }

/// glibc's `malloc_trim`, which Swift's Glibc module leaves out (it is declared in malloc.h).
@_silgen_name("malloc_trim")
private func mallocTrim(_ keep: Int) -> Int32

/// Bytes the process holds in memory now (`/proc/self/statm`'s resident pages): a model's load is told with what it took.
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
