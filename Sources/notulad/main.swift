import Downloading
import NotulaService
import Recording
import Speech

#if canImport(Glibc)
    import Glibc
#endif

/// `mallopt` and `M_MMAP_THRESHOLD` of <malloc.h>, which the Glibc module leaves out.
@_silgen_name("mallopt") func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
let mmapThreshold: Int32 = -3

// Memos are clinical notes: whatever notulad or a library it loads creates is the user's alone.
umask(0o077)

// A parent may have blocked these (test runners do); the service must still hear them to stop cleanly.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)

// A live-text reader that closed its pipe is an EPIPE to handle, not the end of the service.
signal(SIGPIPE, SIG_IGN)

// A block of 1 MiB or more (libdbus's buffer for a peer's 30 MiB message) goes back to the system when freed:
// glibc's moving threshold would keep such blocks in the heap, the peak growing by a message every few messages.
_ = mallopt(mmapThreshold, 1 << 20)

// notulad run again by itself to decode with libwhisper and sherpa-onnx, which abort or end the process on some models.
if let status = DecodingHelperServer.serve(CommandLine.arguments) { exit(status) }

// notulad run again by itself to hear where utterances end with Silero's detector, beside the decodings.
if let status = VoiceHelperServer.serve(CommandLine.arguments) { exit(status) }

// notulad run again by itself to fetch a document, so that libcurl is loaded only in that short-lived child.
if let status = await DocumentFetcher.serve(CommandLine.arguments) { exit(status) }

switch ServiceOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .help:
    print(ServiceOptions.usage)
case .invalid(let message):
    Log.error("\(message)\n\(ServiceOptions.usage)")
    exit(64)
case .run(let options):
    let status = await Service.run(options)
    // What must outlive the process is written by now. exit()'s handlers and the libraries' destructors would run
    // beside threads that may still be in those libraries (a model download starting, a decode): a crash at exit.
    fflush(nil)
    _exit(status)
}
