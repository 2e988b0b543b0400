#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The few system calls the binding makes besides libdbus.

func closeDescriptor(_ fd: Int32) { _ = close(fd) }

func duplicateDescriptor(_ fd: Int32) -> Int32 { fcntl(fd, F_DUPFD_CLOEXEC, 0) }

func environmentValue(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(cString: value)
}

func fileExists(_ path: String) -> Bool { access(path, F_OK) == 0 }

/// CLOCK_MONOTONIC in milliseconds: deadlines of libdbus timeouts.
func monotonicMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}
