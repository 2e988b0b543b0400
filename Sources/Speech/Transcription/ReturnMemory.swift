/// Hands memory freed inside the process back to the system: glibc keeps freed heap pages for
/// reuse, so after a peak (a model released) the resident size would otherwise stay at the peak.
func returnFreedMemory() { _ = mallocTrim(0) }

/// glibc's `malloc_trim`, which Swift's Glibc module leaves out (it is declared in malloc.h).
@_silgen_name("malloc_trim")
private func mallocTrim(_ keep: Int) -> Int32
