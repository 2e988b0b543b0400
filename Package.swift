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
        .systemLibrary(
            name: "CArchive", pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "DBus", dependencies: ["CDBus"]),
        .target(name: "Recording"),
        .target(name: "Audio", dependencies: ["CPulse", "Recording"]),
        .target(name: "Speech", dependencies: ["CCurl", "CArchive", "Recording"]),
        .target(name: "Library", dependencies: ["CSQLite", "Recording"]),
        .target(name: "Notifying", dependencies: ["DBus", "Recording"]),
        .target(name: "NotulaService", dependencies: ["DBus", "Recording", "Audio", "Speech", "Library", "Notifying"]),
        .executableTarget(name: "notulad", dependencies: ["NotulaService", "Recording"]),
        .executableTarget(name: "notula", dependencies: ["DBus", "Recording"]),
        .executableTarget(name: "notula-bench", dependencies: ["DBus", "Speech", "Library", "NotulaTestSupport"]),
        .target(name: "NotulaTestSupport", dependencies: ["DBus", "Recording", "Speech"], path: "Tests/NotulaTestSupport"),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "NotulaTestSupport"]),
        .testTarget(name: "RecordingTests", dependencies: ["Recording"]),
        .testTarget(name: "NotifyingTests", dependencies: ["Notifying", "Recording", "DBus"]),
        .testTarget(name: "AudioTests", dependencies: ["Audio", "Recording", "NotulaTestSupport"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "Recording", "NotulaTestSupport"]),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "Recording", "NotulaTestSupport"]),
        .testTarget(name: "NotulaServiceTests", dependencies: ["NotulaService"]),
        .testTarget(name: "IntegrationTests", dependencies: ["DBus", "Speech", "Library", "NotulaTestSupport"]),
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
