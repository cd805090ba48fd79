// swift-tools-version:6.1
import PackageDescription

/// Thin system-library targets, one per C library. Each is found through pkg-config and
/// installed by `scripts/setup` (Debian package names in `providers`).
let systemLibraries: [Target] = [
    .systemLibrary(name: "CSndfile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
    .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
    .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
    .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
    .systemLibrary(
        name: "CTesseract", pkgConfig: "tesseract",
        providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]),
    // The speaker encoder's matrix products (cblas_sgemm) and the WebRTC VAD its preprocessing uses.
    .systemLibrary(name: "COpenBLAS", pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),
    // No pkgConfig: its cflags carry -D flags SwiftPM refuses; the library is on the default path.
    .systemLibrary(name: "CWebRTCVAD", providers: [.apt(["libwebrtc-audio-processing-dev"])]),
]


let package = Package(
    name: "KordantEngine",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "KordantAudio", targets: ["KordantAudio"]),
        .library(name: "KordantVoice", targets: ["KordantVoice"]),
        .library(name: "KordantOCR", targets: ["KordantOCR"]),
        .library(name: "KordantAPI", targets: ["KordantAPI"]),
        .library(name: "KordantClient", targets: ["KordantClient"]),
        .library(name: "KordantServer", targets: ["KordantServer"]),
        .library(name: "KordantBatch", targets: ["KordantBatch"]),
        .executable(name: "kordant", targets: ["kordant"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: systemLibraries + [
        // C shim for what Swift cannot express: ALSA's variadic error handler.
        .target(name: "CKordantALSA", dependencies: ["CALSA"]),
        .target(
            name: "KordantAudio",
            dependencies: [
                "CSndfile", "CSoxr", "CALSA", "CKordantALSA",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "KordantVoice",
            dependencies: ["KordantAudio", "CFFTW", "COpenBLAS", "CWebRTCVAD", "CKordantSpeaker"]),
        // The speaker encoder's LSTM kernels (the recurrent product and the cell), optimised in
        // debug builds too: the tests and CLI tests run the debug binary, and at -O0 the recurrent
        // product alone made the test run 2.5× longer.
        .target(name: "CKordantSpeaker", cSettings: [.unsafeFlags(["-O2"])]),
        // C shim for PNG and JPEG decoding whose libraries' messages must not reach stderr (their
        // error paths longjmp, which must not cross Swift frames).
        .target(
            name: "CKordantImage",
            dependencies: ["CTesseract"],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]),
        // PDF pages rendered and their text layers read in-process: poppler's C++ API (Debian
        // libpoppler-cpp-dev: no cairo or GLib needed to render) behind a C face, its messages kept off stderr.
        .target(
            name: "CKordantPDF",
            dependencies: ["CTesseract"],
            linkerSettings: [.linkedLibrary("poppler-cpp")]),
        .target(
            name: "KordantOCR",
            dependencies: ["CTesseract", "CKordantImage", "CKordantPDF"]),
        // The backend contract both sides implement: tRPC envelopes, error codes, procedure types.
        .target(
            name: "KordantAPI",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "KordantClient",
            dependencies: [
                "KordantAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .target(
            name: "KordantServer",
            dependencies: [
                "KordantAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Batch pipelines over folders and manifests, and turning engine results into submissions.
        .target(
            name: "KordantBatch",
            dependencies: [
                "KordantAudio", "KordantVoice", "KordantOCR", "KordantAPI", "KordantClient",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "kordant",
            dependencies: [
                "KordantAudio", "KordantVoice", "KordantOCR", "KordantAPI", "KordantClient", "KordantServer", "KordantBatch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "KordantAudioTests",
            dependencies: ["KordantAudio", "CSndfile", "KordantTestSupport"]),
        .testTarget(
            name: "KordantVoiceTests",
            dependencies: ["KordantVoice", "KordantAudio", "CKordantSpeaker", "KordantTestSupport"]),
        .testTarget(
            name: "KordantOCRTests",
            dependencies: ["KordantOCR", "KordantTestSupport"]),
        // Shared by the test targets: the built binary, PDF/RIFF builders, a scratch directory.
        .target(name: "KordantTestSupport", path: "Tests/KordantTestSupport"),
        .testTarget(
            name: "KordantCLITests",
            dependencies: ["kordant", "KordantAudio", "KordantTestSupport"]),
        .testTarget(
            name: "KordantClientTests",
            dependencies: [
                "kordant", "KordantAPI", "KordantClient", "KordantServer", "KordantTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "SystemLibraryTests",
            dependencies: ["CSndfile", "CFFTW", "CALSA", "CSoxr", "CTesseract", "KordantVoice"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (Fuzz/), only when scripts/fuzz builds them (KORDANT_FUZZ=1, with
// -sanitize=fuzzer,address into .build-fuzz): `swift build` and `swift test` never see them.
if Context.environment["KORDANT_FUZZ"] != nil {
    package.targets += [
        .target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"),
        .executableTarget(name: "FuzzWAV", dependencies: ["KordantAudio", "CFuzzDriver"], path: "Fuzz/FuzzWAV"),
        .executableTarget(name: "FuzzMRZ", dependencies: ["KordantOCR", "CFuzzDriver"], path: "Fuzz/FuzzMRZ"),
        .executableTarget(name: "FuzzImage", dependencies: ["KordantOCR", "CFuzzDriver"], path: "Fuzz/FuzzImage"),
        .executableTarget(name: "FuzzPDF", dependencies: ["KordantOCR", "CFuzzDriver"], path: "Fuzz/FuzzPDF"),
        .executableTarget(name: "FuzzMultipart", dependencies: ["KordantServer", "CFuzzDriver"], path: "Fuzz/FuzzMultipart"),
        .executableTarget(name: "FuzzJWT", dependencies: [
            "KordantServer", "CFuzzDriver", .product(name: "Crypto", package: "swift-crypto"),
        ], path: "Fuzz/FuzzJWT"),
        .executableTarget(name: "FuzzTRPC", dependencies: ["KordantAPI", "KordantClient", "CFuzzDriver"], path: "Fuzz/FuzzTRPC"),
        .executableTarget(name: "FuzzManifest", dependencies: ["KordantBatch", "CFuzzDriver"], path: "Fuzz/FuzzManifest"),
        .executableTarget(name: "FuzzEnrollment", dependencies: ["KordantVoice", "CFuzzDriver"], path: "Fuzz/FuzzEnrollment"),
        .executableTarget(name: "FuzzConfig", dependencies: ["KordantClient", "CFuzzDriver"], path: "Fuzz/FuzzConfig"),
    ]
    // -Xswiftc instruments only Swift code: our C and C++ shims get libFuzzer's coverage and
    // ASan here, target by target (an -Xcc flag would change, and rebuild, every Swift module).
    for target in package.targets where ["CKordantImage", "CKordantPDF"].contains(target.name) {
        target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-fsanitize=fuzzer-no-link,address"])]
        target.cxxSettings = (target.cxxSettings ?? []) + [.unsafeFlags(["-fsanitize=fuzzer-no-link,address"])]
    }
}
