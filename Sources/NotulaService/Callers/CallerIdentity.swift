import DBus
import Dictating

#if canImport(Glibc)
    import Glibc
#endif

/// `statfs` of <sys/vfs.h>, which the Glibc module leaves out; its struct is read only for its first field.
@_silgen_name("statfs") private func fileSystemStatus(_ path: UnsafePointer<CChar>, _ status: UnsafeMutablePointer<Int>) -> Int32

/// Names the process behind a bus connection the way xdg-desktop-portal does: a Flatpak app by the `name` of its
/// `.flatpak-info`, a Snap by its AppArmor label, anything else by its executable. Doubt counts as sandboxed.
enum CallerIdentity {
    /// What `program` says of a sandboxed caller whose app id cannot be read.
    static let unidentifiedApp = "an unidentified sandboxed app"
    /// What `program` says of a caller whose process the bus does not know.
    static let noProcess = "a connection with no process the bus can name"

    /// - Throws: the daemon's error when `sender` has no process (it left the bus), `Failed` when the process ended
    ///   before it could be named.
    static func identify(_ sender: String, on bus: Bus) async throws(BusError) -> Caller {
        let processID = try await bus.processID(of: sender)
        // A connection the bus cannot tie to a process (one over TCP) cannot be told unsandboxed: doubt is a sandbox.
        guard processID != 0 else { return Caller(busName: sender, processID: 0, appID: "", program: noProcess) }
        let process = ProcessFiles(processID)
        let appID: String?
        switch process.sandbox() {
        case .gone: throw BusError(.failed, "The calling process (\(processID)) ended before it could be named")
        case .none: appID = nil
        case .flatpak(let id), .snap(let id): appID = id ?? ""
        }
        let program: String
        if let appID {
            program = appID.isEmpty ? unidentifiedApp : appID
        } else {
            program = process.executableName() ?? "process \(processID)"
        }
        return Caller(busName: sender, processID: processID, appID: appID, program: program)
    }
}

/// The sandbox a process runs in; an app id nil when it cannot be read.
enum Sandbox: Equatable {
    case none
    case flatpak(String?)
    case snap(String?)
    /// The process ended while it was being looked at.
    case gone
}

/// What `/proc/PID` tells of a process, each file read with a bound.
struct ProcessFiles {
    /// More than any `.flatpak-info` Flatpak writes (about 1 KiB), read no further.
    static let mostInfoBytes = 64 * 1024
    private static let mostLabelBytes = 4096
    /// fuse's `f_type`: a root there (a toolbox container) may refuse notulad and is never Flatpak's.
    private static let fuseMagic = 0x6573_5546

    let processID: UInt32
    private var folder: String { "/proc/\(processID)" }

    init(_ processID: UInt32) { self.processID = processID }

    func sandbox() -> Sandbox {
        switch flatpakInfo() {
        case .missing: break
        case .gone: return .gone
        case .unreadable: return .flatpak(nil)
        case .read(let text): return .flatpak(CallerNames.flatpakAppID(info: text))
        }
        if let label = appArmorLabel(), CallerNames.isSnapLabel(label) { return .snap(CallerNames.snapName(label: label)) }
        return exists ? .none : .gone
    }

    /// The basename of `/proc/PID/exe`, else `/proc/PID/comm` (another user's process hides its executable).
    func executableName() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("\(folder)/exe", &buffer, buffer.count - 1)
        if length > 0 {
            let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let name = CallerNames.program(executable: path) { return name }
        }
        guard case .read(let comm) = Self.read("\(folder)/comm", upTo: 64) else { return nil }
        return CallerNames.program(comm: comm)
    }

    private var exists: Bool { access(folder, F_OK) == 0 }

    private enum FileRead {
        case read(String)
        case missing
        case unreadable
        case gone
    }

    /// `.flatpak-info` at the root the process sees. A root notulad may not open is unreadable (sandboxed) unless it is
    /// fuse's, as xdg-desktop-portal judges; a `.flatpak-info` that is not a plain file is unreadable too.
    private func flatpakInfo() -> FileRead {
        let root = open("\(folder)/root", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY)
        guard root >= 0 else {
            let error = errno
            if error == ENOENT || error == ESRCH || !exists { return .gone }
            if error == EACCES, isOnFuse("\(folder)/root") { return .missing }
            return .unreadable
        }
        defer { close(root) }
        let info = openat(root, ".flatpak-info", O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW)
        guard info >= 0 else { return errno == ENOENT ? .missing : .unreadable }
        defer { close(info) }
        var status = stat()
        guard fstat(info, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return .unreadable }
        guard let text = Self.read(info, upTo: Self.mostInfoBytes) else { return .unreadable }
        return .read(text)
    }

    /// The AppArmor label: the stacked interface's file first (Ubuntu's kernels), else the classic one. Nil without
    /// AppArmor.
    private func appArmorLabel() -> String? {
        for path in ["\(folder)/attr/apparmor/current", "\(folder)/attr/current"] {
            if case .read(let label) = Self.read(path, upTo: Self.mostLabelBytes) { return label }
        }
        return nil
    }

    private func isOnFuse(_ path: String) -> Bool {
        // `struct statfs` (120 bytes on 64-bit Linux) begins with `f_type`, a long.
        var system = [Int](repeating: 0, count: 32)
        return fileSystemStatus(path, &system) == 0 && system[0] == Self.fuseMagic
    }

    private static func read(_ path: String, upTo limit: Int) -> FileRead {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { return errno == ENOENT ? .missing : .unreadable }
        defer { close(descriptor) }
        return read(descriptor, upTo: limit).map(FileRead.read) ?? .unreadable
    }

    /// Up to `limit` bytes; nil when reading fails.
    private static func read(_ descriptor: Int32, upTo limit: Int) -> String? {
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, limit - count) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { return nil }
            if got == 0 { break }
            count += got
        }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}

/// The pure half of naming a caller: what the files of `/proc` say, read as xdg-desktop-portal reads them.
enum CallerNames {
    /// At most this many characters of a program's name are shown: a peer chooses its executable's name.
    static let mostProgramCharacters = 64

    /// The app id of a `.flatpak-info`: `name` in `[Runtime]` when it has that group (`flatpak run --runtime`), else in
    /// `[Application]`, as the portal reads it. Nil when there is none or it is not an app id.
    static func flatpakAppID(info: String) -> String? {
        var names: [String: String] = [:]
        var group: String?
        for raw in info.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingSpaces
            if line.first == "[", line.last == "]" {
                let name = String(line.dropFirst().dropLast())
                group = name
                if names[name] == nil { names[name] = "" }
                continue
            }
            guard let group, names[group] == "", let equals = line.firstIndex(of: "="), line[..<equals].trimmingSpaces == "name"
            else { continue }
            names[group] = String(line[line.index(after: equals)...].trimmingSpaces)
        }
        let named = names["Runtime"] ?? names["Application"]
        return named.flatMap { isAppID($0) ? $0 : nil }
    }

    /// Flatpak's rule for an app id: at most 255 bytes, three or more elements of ASCII letters, digits and `_`, none
    /// starting with a digit; `-` only in the last.
    static func isAppID(_ id: String) -> Bool {
        let elements = id.split(separator: ".", omittingEmptySubsequences: false)
        guard id.utf8.count <= 255, elements.count >= 3 else { return false }
        return elements.enumerated().allSatisfy { index, element in
            guard let first = element.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
            let dashAllowed = index == elements.count - 1
            return element.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
                    || (scalar == "-" && dashAllowed)
            }
        }
    }

    /// Whether an AppArmor label is a snap's confinement: `snap.NAME.APP (enforce)`, `snap.NAME.hook.HOOK (complain)`.
    static func isSnapLabel(_ label: String) -> Bool { label.hasPrefix("snap.") }

    /// The snap's name (with its instance key, `name_key`) in a snap label; nil when the label is not well formed.
    static func snapName(label: String) -> String? {
        var profile = Substring(label.split(separator: "\0", maxSplits: 1, omittingEmptySubsequences: false)[0]).trimmingSpaces
        if let mode = profile.firstRange(of: " (") { profile = profile[..<mode.lowerBound] }
        let parts = profile.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts[0] == "snap", parts.dropFirst(2).allSatisfy({ !$0.isEmpty }) else { return nil }
        let name = parts[1]
        let halves = name.split(separator: "_", omittingEmptySubsequences: false)
        guard halves.count <= 2, let snap = halves.first, (2...40).contains(snap.count),
            snap.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }),
            snap.contains(where: \.isLetter), snap.first != "-", snap.last != "-"
        else { return nil }
        if halves.count == 2 {
            let key = halves[1]
            guard (1...10).contains(key.count), key.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) })
            else { return nil }
        }
        return String(name)
    }

    /// The name of an executable from `/proc/PID/exe`'s target: its last element, without the ` (deleted)` the kernel
    /// adds once the file is replaced (a package upgrade).
    static func program(executable path: String) -> String? {
        var path = Substring(path)
        if path.hasSuffix(" (deleted)") { path = path.dropLast(" (deleted)".count) }
        return shown(path.split(separator: "/").last.map(String.init) ?? "")
    }

    /// The name of `/proc/PID/comm`: the kernel's 15 characters and a newline.
    static func program(comm: String) -> String? {
        shown(String(comm.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)[0]))
    }

    /// A name fit to show: no control characters, at most `mostProgramCharacters`; nil when nothing is left.
    static func shown(_ name: String) -> String? {
        let kept = String(String.UnicodeScalarView(name.unicodeScalars.filter { !$0.properties.generalCategory.isControlOrFormat }))
        let trimmed = String(kept.trimmingSpaces.prefix(mostProgramCharacters))
        return trimmed.isEmpty ? nil : trimmed
    }
}

extension Unicode.GeneralCategory {
    fileprivate var isControlOrFormat: Bool { self == .control || self == .format }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end.
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return Substring(self[first...last])
    }
}
