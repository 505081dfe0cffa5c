// swift-tools-version: 6.1
import Foundation
import PackageDescription

/// A path dependency is named after its folder, which is whatever the clone is called.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

/// One libFuzzer executable per entry point of `WebImageFuzzing.FuzzTarget` (`fuzz-jpeg`, …).
let entryPoints = ["jpeg", "png", "gif", "gif-lzw-differential", "jpeg-scan-skip-differential", "webp", "avif", "heif", "jxl", "tiff", "svg", "pnm", "coders", "data-url", "icc", "metadata"]

// The fuzzers live in their own package so that the library's build and CI never see them.
// Build and run them with ./run.sh (it passes -sanitize=fuzzer,address); see README.md.
let package = Package(
    name: "WebImageFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(
            name: "FuzzDriver",
            dependencies: [.product(name: "WebImageFuzzing", package: root)],
            path: "Sources/FuzzDriver"),
    ]
        + entryPoints.map { name in
            .executableTarget(
                name: "fuzz-\(name)",
                dependencies: ["FuzzDriver", .product(name: "WebImageFuzzing", package: root)],
                path: "Sources/fuzz-\(name)")
        }
)
