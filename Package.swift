// swift-tools-version:6.1
import PackageDescription

// The test suite decodes, analyses and renders real audio: unoptimised it ran about four times as
// long (1,372 s against 358 s; CI went past 20 minutes). scripts/test.sh sets
// BEATTAG_OPTIMIZED_TESTS=1 so the project's own code is built with -O in the debug configuration
// (still testable; dependencies untouched; the code checks with precondition, never assert, which -O
// drops); a plain `swift build` stays -Onone for the debugger.
let optimizedForTests: [SwiftSetting] =
    Context.environment["BEATTAG_OPTIMIZED_TESTS"] == "1" ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []

let package = Package(
    name: "beattag",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "BeatTagKit", targets: ["BeatTagKit"]),
        .executable(name: "beattag", targets: ["beattag"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Runner profile and workout plan files (TOML): a kept parser beats a hand-written one.
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // The review page's HTTP server (SwiftNIO). FlyingFox builds in a fraction of the time but links
        // FoundationNetworking, hence libcurl, into every command (docs/review.md).
        // Without its default traits: swift-configuration and full-Foundation extras are not needed here.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // Thin wrappers over the Debian -dev packages (see README: Quick start).
        .systemLibrary(
            name: "CSndfile", pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"]), .brew(["libsndfile"])]),
        .systemLibrary(
            name: "CFFTW", pkgConfig: "fftw3f",
            providers: [.apt(["libfftw3-dev"]), .brew(["fftw"])]),
        // The heavy optional libraries: their headers only (no pkg-config, no link). CLibraryLoader
        // opens them (and Chromaprint, which recognises one recording across encodings and links
        // FFmpeg; only its runtime, libchromaprint1, is needed) with dlopen on first use, so a command maps only what it calls, and a missing
        // one costs only its feature (docs/architecture.md, "Libraries loaded on first use").
        // FFmpeg 5.1 decodes what libsndfile refuses (AAC, ALAC, WMA); libsndfile stays first.
        .systemLibrary(
            name: "CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev"]), .brew(["ffmpeg"])]),
        // The run's mix: time-stretching to the clock and loudness (EBU R 128).
        .systemLibrary(
            name: "CRubberBand",
            providers: [.apt(["librubberband-dev"]), .brew(["rubberband"])]),
        .systemLibrary(
            name: "CEbur128",
            providers: [.apt(["libebur128-dev"]), .brew(["libebur128"])]),
        // Spoken cues in rendered workouts.
        .systemLibrary(
            name: "CEspeak",
            providers: [.apt(["libespeak-ng-dev"]), .brew(["espeak-ng"])]),
        // glibc's extended-attribute calls, which Swift's Glibc module leaves out.
        .systemLibrary(name: "CXattr"),
        .target(
            name: "CLibraryLoader",
            linkerSettings: [
                .linkedLibrary("dl"),
                // EspeakNoAudioDevice.c answers espeak-ng's call for a sound device: the executable
                // must offer the symbol to a library it opens later (dlopen), which the linker
                // does only for symbols the libraries it links use.
                .unsafeFlags(["-Xlinker", "--export-dynamic-symbol=create_audio_device_object"], .when(platforms: [.linux])),
            ]),
        // Ctrl-C and SIGTERM through a pipe: a handler that only writes one byte loses no signal.
        .target(name: "CSignalPipe"),
        // TagLib 1.13's C API cannot reach BPM or licence fields: a small C++ shim over PropertyMap.
        .target(
            name: "CTagLibShim",
            linkerSettings: [.linkedLibrary("tag")]),
        .target(
            name: "BeatTagKit",
            dependencies: [
                "CSndfile", "CFFmpeg", "CFFTW", "CTagLibShim", "CRubberBand", "CEbur128", "CEspeak", "CLibraryLoader", "CXattr",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: optimizedForTests),
        // Every command: parsing, printing, exit codes. The library does the work.
        .target(
            name: "BeatTagCLI",
            dependencies: [
                "BeatTagKit", "BeatTagReview", "CSignalPipe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // `beattag review`: the local page that settles doubtful tempi by ear, and its JSON API.
        .target(
            name: "BeatTagReview",
            dependencies: [
                "BeatTagKit", "CSndfile",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .executableTarget(
            name: "beattag",
            dependencies: ["BeatTagCLI"]),
        // Signal and drum synthesis and test-audio writing: for tests and fixtures, never linked into `beattag`.
        .target(
            name: "BeatTagTestSupport",
            dependencies: ["BeatTagKit", "CSndfile"],
            swiftSettings: optimizedForTests),
        // Writes Fixtures/ deterministically (drum patterns at known tempi, tags, odd cases).
        .executableTarget(
            name: "beattag-fixtures",
            dependencies: ["BeatTagKit", "BeatTagTestSupport"]),
        .testTarget(
            name: "BeatTagKitTests",
            dependencies: ["BeatTagKit", "BeatTagCLI", "BeatTagReview", "BeatTagTestSupport"],
            swiftSettings: optimizedForTests),
    ],
    swiftLanguageModes: [.v5],
    cxxLanguageStandard: .cxx17
)
