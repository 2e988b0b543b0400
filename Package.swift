// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Notula",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "notulad", targets: ["notulad"]),
        .executable(name: "notula", targets: ["notula"]),
    ],
    targets: [
        .systemLibrary(
            name: "CDBus", pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(
            name: "CPulse", pkgConfig: "libpulse",
            providers: [.apt(["libpulse-dev"])]),
        // Headers only: libcurl is loaded with dlopen at the first download (libcurl4-openssl-dev).
        .systemLibrary(name: "CCurl"),
        // Headers only: libarchive is loaded with dlopen at the first unpack (libarchive-dev).
        .systemLibrary(name: "CArchive"),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CX11", pkgConfig: "x11",
            providers: [.apt(["libx11-dev"])]),
        .systemLibrary(
            name: "CWayland", pkgConfig: "wayland-client",
            providers: [.apt(["libwayland-dev"])]),
        .target(name: "DBus", dependencies: ["CDBus"]),
        .target(name: "Recording"),
        .target(name: "Audio", dependencies: ["CPulse", "Recording"]),
        .target(name: "Downloading", dependencies: ["CCurl", "CArchive", "Recording"]),
        .target(name: "CWhisper"),
        .target(name: "CSherpa"),
        .target(name: "Models", dependencies: ["Downloading", "Recording"]),
        .target(name: "Speech", dependencies: ["CSherpa", "CWhisper", "Downloading", "Models", "Recording"]),
        .target(name: "Library", dependencies: ["CSQLite", "Recording"]),
        .target(name: "Writing"),
        .target(name: "Notifying", dependencies: ["DBus", "NotulaContract", "Recording"]),
        .target(name: "Memos", dependencies: ["Library", "Recording"]),
        .target(name: "NotulaContract", dependencies: ["DBus", "Recording"]),
        .target(name: "Delivering", dependencies: ["CWayland", "CX11", "DBus", "NotulaContract", "Recording"]),
        .target(name: "Dictating", dependencies: ["Delivering", "Recording", "Speech", "Writing"]),
        .target(
            name: "NotulaService",
            dependencies: [
                "DBus", "NotulaContract", "Recording", "Audio", "Downloading", "Models", "Speech", "Library", "Memos", "Notifying", "Delivering",
                "Dictating", "Writing",
            ]),
        .executableTarget(name: "notulad", dependencies: ["Downloading", "NotulaService", "Recording", "Speech"]),
        .executableTarget(name: "notula", dependencies: ["DBus", "NotulaContract", "Recording"]),
        .executableTarget(
            name: "notula-bench",
            dependencies: ["DBus", "NotulaContract", "Models", "Speech", "Library", "NotulaTestSupport", "Delivering", "Writing"]),
        .target(
            name: "NotulaTestSupport", dependencies: ["DBus", "NotulaContract", "Recording", "Speech", "Writing"], path: "Tests/NotulaTestSupport"),
        .target(name: "TestPasses", path: "Tests/TestPasses"),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "NotulaTestSupport"]),
        .testTarget(name: "RecordingTests", dependencies: ["Recording"]),
        .testTarget(name: "NotifyingTests", dependencies: ["Notifying", "Recording", "DBus"]),
        .testTarget(name: "AudioTests", dependencies: ["Audio", "Recording", "NotulaTestSupport", "TestPasses"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "Recording", "NotulaTestSupport"]),
        .testTarget(name: "DownloadingTests", dependencies: ["Downloading", "NotulaTestSupport"]),
        .testTarget(name: "SpeechTests", dependencies: ["Models", "Speech", "Recording", "NotulaTestSupport", "TestPasses"]),
        .testTarget(name: "ModelsTests", dependencies: ["Models", "Recording", "NotulaTestSupport", "TestPasses"]),
        .testTarget(name: "DeliveringTests", dependencies: ["Delivering", "DBus", "NotulaTestSupport", "TestPasses"]),
        .testTarget(name: "WritingTests", dependencies: ["Writing"]),
        .testTarget(name: "MemosTests", dependencies: ["Memos", "Library", "Recording", "Audio"]),
        .testTarget(name: "DictatingTests", dependencies: ["Dictating", "Delivering", "Recording", "Speech", "Writing"]),
        .testTarget(name: "NotulaServiceTests", dependencies: ["NotulaService"]),
        .testTarget(name: "IntegrationTests", dependencies: ["DBus", "NotulaContract", "Models", "Speech", "Library", "Recording", "NotulaTestSupport", "TestPasses"]),
    ]
)

// Strict settings for every target in one place.
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
        ]
}
