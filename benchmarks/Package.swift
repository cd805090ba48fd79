// swift-tools-version:6.1
import PackageDescription

// The engine's benchmarks (ordo-one/benchmark). Run from this folder:
//   swift package benchmark                   # all suites
//   ./compare                                 # the engine and its peers, in one run, as ratios
let package = Package(
    name: "KordantBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "KordantEngine", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "AudioBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "KordantAudio", package: "KordantEngine"),
            ],
            path: "Benchmarks/AudioBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "VoiceBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "KordantVoice", package: "KordantEngine"),
            ],
            path: "Benchmarks/VoiceBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "DocumentBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "KordantOCR", package: "KordantEngine"),
            ],
            path: "Benchmarks/DocumentBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "BatchBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "KordantBatch", package: "KordantEngine"),
                .product(name: "KordantOCR", package: "KordantEngine"),
                .product(name: "KordantVoice", package: "KordantEngine"),
                .product(name: "KordantAPI", package: "KordantEngine"),
            ],
            path: "Benchmarks/BatchBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "SealBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "KordantAPI", package: "KordantEngine"),
                .product(name: "KordantClient", package: "KordantEngine"),
            ],
            path: "Benchmarks/SealBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ],
    swiftLanguageModes: [.v6]
)
