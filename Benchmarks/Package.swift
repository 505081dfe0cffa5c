// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// A path dependency is named after its folder, which is whatever the clone is called.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

// Benchmarks live in their own package so that the library's build and CI never compile
// package-benchmark. Run from this folder:
//   swift package benchmark                  (package-benchmark suites)
//   ./compare.sh                             (us beside tjbench, Pillow and vipsthumbnail)
//   ./loader-compare.sh                      (HTTP loader beside curl --parallel, same loopback server)
//   swift run -c release webimage-player-bench   (AnimatedImagePlayer: CPU and memory while playing)
let package = Package(
    name: "WebImageBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [.product(name: "WebImageCodecs", package: root)],
            path: "Sources/BenchmarkSupport"),
        .executableTarget(
            name: "webimage-bench",
            dependencies: ["BenchmarkSupport", .product(name: "WebImageCodecs", package: root)],
            path: "Sources/webimage-bench"),
        .executableTarget(
            name: "webimage-player-bench",
            dependencies: [.product(name: "WebImageCodecs", package: root), .product(name: "WebImageTesting", package: root)],
            path: "Sources/webimage-player-bench"),
        .executableTarget(
            name: "webimage-transform-bench",
            dependencies: [.product(name: "WebImage", package: root)],
            path: "Sources/webimage-transform-bench"),
        .executableTarget(
            name: "webimage-loader-bench",
            dependencies: [
                .product(name: "WebImageHTTP", package: root),
                .product(name: "WebImageHTTPTesting", package: root),
            ],
            path: "Sources/webimage-loader-bench"),
        .executableTarget(
            name: "CodecBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "WebImageCodecs", package: root),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/CodecBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]),
        .target(
            name: "CacheBenchmarkSupport",
            dependencies: [
                .product(name: "WebImage", package: root),
                .product(name: "WebImageDiskCache", package: root),
            ],
            path: "Sources/CacheBenchmarkSupport"),
        .executableTarget(
            name: "webimage-cache-bench",
            dependencies: ["CacheBenchmarkSupport"],
            path: "Sources/webimage-cache-bench"),
        .executableTarget(
            name: "CacheBenchmarks",
            dependencies: [
                "CacheBenchmarkSupport",
                .product(name: "WebImage", package: root),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/CacheBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]),
        .executableTarget(
            name: "webimage-manager-bench",
            dependencies: [
                .product(name: "WebImageKit", package: root),
                .product(name: "WebImageHTTPTesting", package: root),
            ],
            path: "Sources/webimage-manager-bench"),
    ]
)
