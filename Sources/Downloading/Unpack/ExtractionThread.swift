import Glibc

/// A thread of its own for an unpack, whose working directory is the folder unpacked into and whose
/// character set is UTF-8.
///
/// libarchive's guards against `..`, absolute names and symbolic links work on names relative to the
/// working directory, and only there (given absolute names, they would also refuse a folder whose own path
/// goes through a link, as `/home` does on some systems). The process has a single working directory, which the
/// service's other threads share, so the thread gets one of its own with `unshare(CLONE_FS)`, as Samba's
/// thread pool does; that also keeps libarchive's brief `umask(0)` to itself. Swift processes run in the C
/// locale, in which libarchive cannot convert names that are not ASCII, hence the thread's own locale.
enum ExtractionThread {
    /// Runs `body` to its end on a new thread that works in the folder open as `descriptor`.
    /// - Parameters:
    ///   - descriptor: The folder, open; it stays the caller's to close.
    ///   - path: The folder's path, for messages.
    ///   - body: The work; it must not change the thread's working directory.
    /// - Throws: What `body` throws; `.fileError` when the thread cannot be started or given the folder.
    /// The corresponding C functions are `pthread_create` and `pthread_join`.
    static func run<Value>(inFolder descriptor: Int32, path: String, _ body: () throws(UnpackError) -> Value)
        throws(UnpackError) -> Value
    {
        try withoutActuallyEscaping(body) { body throws(UnpackError) in
            // Written by the thread and read after joining it, which orders the two.
            var result: Result<Value, UnpackError>?
            let job = Job {
                result = Result { () throws(UnpackError) in
                    try enterFolder(descriptor, path: path)
                    return try withUTF8Names(body)
                }
            }
            let context = Unmanaged.passRetained(job).toOpaque()
            var thread = pthread_t()
            let status = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().work()
                    return nil
                }, context)
            guard status == 0 else {
                Unmanaged<Job>.fromOpaque(context).release()
                throw .fileError(path: path, reason: "No thread could be started to unpack: \(String(cString: strerror(status)))")
            }
            pthread_join(thread, nil)
            return try result!.get()
        }
    }

    /// The work handed to the new thread, through a pointer.
    private final class Job {
        let work: () -> Void

        init(_ work: @escaping () -> Void) {
            self.work = work
        }
    }

    /// `CLONE_FS` of `<sched.h>`: the working directory, root and umask.
    private static let cloneFilesystem: Int32 = 0x200

    private typealias Unshare = @convention(c) (Int32) -> Int32

    /// Gives the calling thread a working directory of its own, the folder open as `descriptor`.
    ///
    /// `unshare` is looked up in libc because the Glibc module leaves out GNU extensions.
    /// The corresponding C functions are `unshare` and `fchdir`.
    private static func enterFolder(_ descriptor: Int32, path: String) throws(UnpackError) {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "unshare") else {
            throw .fileError(path: path, reason: "The C library lacks unshare, which unpacking needs")
        }
        let unshare = unsafeBitCast(symbol, to: Unshare.self)
        guard unshare(cloneFilesystem) == 0 else {
            throw .fileError(
                path: path, reason: "A thread cannot get a working directory of its own (unshare: \(String(cString: strerror(errno))))")
        }
        guard fchdir(descriptor) == 0 else {
            throw .fileError(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Runs `body` in the C.UTF-8 locale, or in the process's where glibc lacks it (before 2.35), which
    /// still reads ASCII names.
    /// The corresponding C functions are `newlocale`, `uselocale` and `freelocale`.
    private static func withUTF8Names<Value>(_ body: () throws(UnpackError) -> Value) throws(UnpackError) -> Value {
        guard let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) else { return try body() }
        let previous = uselocale(utf8)
        defer {
            uselocale(previous)
            freelocale(utf8)
        }
        return try body()
    }
}
