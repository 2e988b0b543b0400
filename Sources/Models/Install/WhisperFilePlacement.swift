import FoundationEssentials
import Glibc

extension ModelInstallation {
    /// The first four bytes of a ggml file, `lmgg`: the magic libwhisper checks first.
    private static let ggmlMagic: [UInt8] = [0x6c, 0x6d, 0x67, 0x67]

    /// Moves a downloaded Whisper model into the models folder, 0600, once its header is ggml's.
    ///
    /// Whether libwhisper loads it is learnt at its first use, in the helper process, where a bad file costs only
    /// that decoding.
    func placeWhisperFile() throws(InstallError) -> InstalledModel {
        var head = [UInt8](repeating: 0, count: Self.ggmlMagic.count)
        let descriptor = open(partialFile, O_RDONLY | O_CLOEXEC)
        let count = descriptor < 0 ? -1 : read(descriptor, &head, head.count)
        if descriptor >= 0 { close(descriptor) }
        guard count == head.count, head == Self.ggmlMagic else {
            throw .failed("The file downloaded as \(entry.name) is not a ggml Whisper model.")
        }
        try makeModelsFolder()
        let destination = modelsFolder + "/" + entry.name + ".bin"
        guard chmod(partialFile, 0o600) == 0 else { throw cannotMove(to: destination) }
        if rename(partialFile, destination) != 0 {
            // The cache and the data folder on two disks: copied beside the models, then renamed in one step.
            guard errno == EXDEV else { throw cannotMove(to: destination) }
            let copy = modelsFolder + "/.installing-" + entry.name + ".bin"
            try? FileManager.default.removeItem(atPath: copy)
            defer { try? FileManager.default.removeItem(atPath: copy) }
            guard (try? FileManager.default.copyItem(atPath: partialFile, toPath: copy)) != nil, rename(copy, destination) == 0 else {
                throw cannotMove(to: destination)
            }
        }
        return InstalledModel(locale: entry.locales.first ?? entry.voskCode, path: destination, name: entry.name, kind: .whisper)
    }

    private func cannotMove(to destination: String) -> InstallError {
        .failed("Cannot move the model into \(destination): \(String(cString: strerror(errno))).")
    }

    /// Creates the models folder, 0700, when missing.
    func makeModelsFolder() throws(InstallError) {
        guard
            (try? FileManager.default.createDirectory(
                atPath: modelsFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil
        else {
            throw .failed("Cannot create the folder \(modelsFolder) for the model.")
        }
    }
}
