// swift-tools-version: 6.1
import PackageDescription

/// Every target is built in Swift 6 language mode; CI adds `-warnings-as-errors`.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "WebImage",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "WebImage", targets: ["WebImage"]),
        .library(name: "WebImageCodecs", targets: ["WebImageCodecs"]),
        .library(name: "WebImageColor", targets: ["WebImageColor"]),
        .library(name: "WebImagePNM", targets: ["WebImagePNM"]),
        .library(name: "WebImageDiskCache", targets: ["WebImageDiskCache"]),
        .executable(name: "webimage", targets: ["webimage"]),
        .executable(name: "webimage-svg-render", targets: ["webimage-svg-render"]),
        .library(name: "WebImageHTTP", targets: ["WebImageHTTP"]),
        .library(name: "WebImageHTTPCookies", targets: ["WebImageHTTPCookies"]),
        .library(name: "WebImageHTTPTesting", targets: ["WebImageHTTPTesting"]),
        .library(name: "WebImageTesting", targets: ["WebImageTesting"]),
        .library(name: "WebImageKit", targets: ["WebImageKit"]),
        .library(name: "WebImageRedis", targets: ["WebImageRedis"]),
        .library(name: "WebImageFuzzing", targets: ["WebImageFuzzing"]),
        .library(name: "WebImageTerminal", targets: ["WebImageTerminal"]),
        .library(name: "WebImageServer", targets: ["WebImageServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // The image service (issue 16). Hummingbird without its swift-configuration trait (flags and
        // environment are read by the CLI).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Documentation only (`scripts/docs.sh`); nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: Core: Swift, plus the pixel kernels' AVX2/AVX-512 versions in C (chosen at run time;
        // Swift's own SIMD kernels elsewhere and as the reference). No system libraries.
        .target(name: "CPixelKernels", path: "Sources/C/CPixelKernels"),
        .target(
            name: "WebImage",
            dependencies: [
                "CPixelKernels",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings),

        // MARK: C libraries: one system-library target each, plus a setjmp shim where needed.
        .systemLibrary(
            name: "CJPEG", path: "Sources/C/CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]),
        .target(name: "CJPEGShim", dependencies: ["CJPEG"], path: "Sources/C/CJPEGShim"),
        .systemLibrary(
            name: "CZlib", path: "Sources/C/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/C/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        // zlib inflates iCCP profiles (libpng's own iCCP handling is off: its checks drop or reject files).
        .target(name: "CPNGShim", dependencies: ["CPNG"], path: "Sources/C/CPNGShim", linkerSettings: [.linkedLibrary("z")]),
        .systemLibrary(
            name: "CGIF", path: "Sources/C/CGIF",
            providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
        .systemLibrary(
            name: "CWebP", path: "Sources/C/CWebP", pkgConfig: "libwebpdemux libwebpmux libwebp",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        // JPEG XL, TIFF and SVG (issue 13): libjxl, libtiff (+ a shim for its callbacks), librsvg (+ a shim: GLib stays in C).
        // libjxl, libavif and libheif are loaded on first use (dlopen, CLibraryLoader), not linked: a
        // command that meets none of their files does not map them and their encoders at start
        // (docs/performance.md, "Start-up time"). Their headers are in the default include paths (libheif's under the
        // multiarch directory); libjxl.pc and libavif.pc only add defines SwiftPM refuses.
        .target(
            name: "CLibraryLoader", path: "Sources/C/CLibraryLoader",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "CJXL", dependencies: ["CLibraryLoader"], path: "Sources/C/CJXL"),
        .systemLibrary(
            name: "CTIFF", path: "Sources/C/CTIFF", pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"]), .brew(["libtiff"])]),
        .target(name: "CTIFFShim", dependencies: ["CTIFF"], path: "Sources/C/CTIFFShim"),
        // librsvg is loaded on first use too. Its headers need GLib's, cairo's and gdk-pixbuf's
        // include paths, which only pkg-config knows, and pkg-config's link flags would map it at
        // start; so the shim declares the few functions it calls itself, and CSVG (pkg-config, the
        // real headers) is used only by CSVGABICheck, built with the SVG tests, which compares the
        // two. SwiftPM drops gio's `-pthread` from CSVG with a warning (harmless: glibc needs no flag).
        .systemLibrary(
            name: "CSVG", path: "Sources/C/CSVG", pkgConfig: "librsvg-2.0",
            providers: [.apt(["librsvg2-dev"]), .brew(["librsvg"])]),
        .target(name: "CSVGShim", dependencies: ["CLibraryLoader"], path: "Sources/C/CSVGShim"),
        .target(name: "CSVGABICheck", dependencies: ["CSVG"], path: "Tests/CSVGABICheck"),
        // AVIF and HEIF/HEIC (issue 13): libavif, libheif, loaded on first use like libjxl.
        .target(name: "CAVIF", dependencies: ["CLibraryLoader"], path: "Sources/C/CAVIF"),
        .target(name: "CHEIF", dependencies: ["CLibraryLoader"], path: "Sources/C/CHEIF"),
        // Colour management (issue 26): Little CMS 2, loaded on first use like libavif.
        .target(name: "CLCMS2", dependencies: ["CLibraryLoader"], path: "Sources/C/CLCMS2"),

        // Sixel graphics for `webimage show` (issue 15): libsixel's palette and encoder. No pkgConfig:
        // libsixel.pc only adds its include directory, and the shim includes <sixel/sixel.h>.
        .systemLibrary(
            name: "CSixel", path: "Sources/C/CSixel",
            providers: [.apt(["libsixel-dev"]), .brew(["libsixel"])]),

        // MARK: Codecs: one module per format, and an umbrella that registers them all.
        .target(name: "WebImageJPEG", dependencies: ["WebImage", "CJPEGShim"], swiftSettings: swiftSettings),
        .target(name: "WebImagePNG", dependencies: ["WebImage", "CPNGShim"], swiftSettings: swiftSettings),
        .target(name: "WebImageGIF", dependencies: ["WebImage", "CGIF"], swiftSettings: swiftSettings),
        .target(name: "WebImageWebP", dependencies: ["WebImage", "CWebP"], swiftSettings: swiftSettings),
        .target(name: "WebImageJXL", dependencies: ["WebImage", "CJXL"], swiftSettings: swiftSettings),
        .target(name: "WebImageTIFF", dependencies: ["WebImage", "CTIFFShim"], swiftSettings: swiftSettings),
        .target(name: "WebImageSVG", dependencies: ["WebImage", "CSVGShim"], swiftSettings: swiftSettings),
        // The process SVGCoder renders each document in (a librsvg panic aborts it, not its caller).
        .executableTarget(name: "webimage-svg-render", dependencies: ["CSVGShim"], path: "Sources/webimage-svg-render"),
        .target(name: "WebImageAVIF", dependencies: ["WebImage", "CAVIF"], swiftSettings: swiftSettings),
        .target(name: "WebImageHEIF", dependencies: ["WebImage", "CHEIF"], swiftSettings: swiftSettings),
        .target(name: "WebImageColor", dependencies: ["WebImage", "CLCMS2"], swiftSettings: swiftSettings),
        // Netpbm maps (PPM, PGM, PAM): the tool's decode-only output; not in the umbrella, so `serve` never writes them.
        .target(name: "WebImagePNM", dependencies: ["WebImage"], swiftSettings: swiftSettings),
        .target(
            name: "WebImageCodecs",
            dependencies: [
                "WebImage", "WebImageJPEG", "WebImagePNG", "WebImageGIF", "WebImageWebP",
                "WebImageJXL", "WebImageTIFF", "WebImageSVG",
                "WebImageAVIF", "WebImageHEIF", "WebImageColor",
            ],
            swiftSettings: swiftSettings),

        // MARK: Disk cache: SQLite index (GRDB) + one file per entry; the default memory + disk cache.
        .target(
            name: "WebImageDiskCache",
            dependencies: [
                "WebImage",
                "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        // A child process for the disk cache's crash and two-process tests.
        .executableTarget(
            name: "webimage-cache-stress",
            dependencies: ["WebImageDiskCache", "WebImageTesting"],
            swiftSettings: swiftSettings),

        // A launcher that reports the peak memory of a child process, for the CLI's memory tests.
        .executableTarget(name: "webimage-peak-rss", path: "Sources/webimage-peak-rss"),
        // A child process that plays a generated GIF and reports its memory, for the player's memory test.
        .executableTarget(
            name: "webimage-player-probe", dependencies: ["WebImageCodecs", "WebImageTesting"], swiftSettings: swiftSettings),

        // MARK: Shipped test kit.
        .target(
            name: "WebImageTesting",
            dependencies: ["WebImage", "CLCMS2", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings),

        // MARK: Foundation's HTTPCookieStorage as the HTTP loader's cookie store. On Linux it lives in
        // FoundationNetworking, which maps libcurl and ~25 libraries at start: only programs that
        // handle cookies link it (the webimage tool does not).
        .target(name: "WebImageHTTPCookies", dependencies: ["WebImage"], swiftSettings: swiftSettings),

        // MARK: HTTP loader on AsyncHTTPClient, and its loopback test server (NIO stays out of the core).
        .target(
            name: "WebImageHTTP",
            dependencies: [
                "WebImage",
                // The default cookie store on Apple platforms; Linux programs opt in (see WebImageHTTPCookies).
                .target(
                    name: "WebImageHTTPCookies",
                    condition: .when(platforms: [.macOS, .iOS, .tvOS, .watchOS, .visionOS])),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // AWS Signature V4 for s3:// sources (HMAC-SHA256, SHA-256).
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "WebImageHTTPTesting",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),

        // MARK: Redis tier (issue 17): a small RESP2/RESP3 client over NIO, the Redis data cache,
        // the circuit breaker and the cross-node download lock.
        .target(
            name: "WebImageRedis",
            dependencies: [
                "WebImage", "WebImageDiskCache",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings),

        // MARK: Umbrella: every module, and the defaults (ImageManager.shared).
        .target(
            name: "WebImageKit",
            dependencies: [
                "WebImage", "WebImageCodecs", "WebImageDiskCache", "WebImageHTTP", "WebImageRedis",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings),

        // MARK: Image service: `webimage serve` on Hummingbird 2 (issue 16).
        .target(
            name: "WebImageServer",
            dependencies: [
                "WebImageRedis",
                "WebImage", "WebImageCodecs", "WebImageDiskCache", "WebImageHTTP", "WebImageKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),

        // MARK: Fuzz entry points: what the Fuzz/ package's libFuzzer targets and the replay tests run.
        .target(
            name: "WebImageFuzzing",
            dependencies: ["WebImage", "WebImageCodecs", "WebImagePNM", "WebImageTesting"],
            swiftSettings: swiftSettings),

        // MARK: Terminal drawing: kitty, iTerm2, sixel and half-block renderers and the terminal
        // image target of `webimage show`.
        .target(
            name: "WebImageTerminal", dependencies: ["WebImage", "WebImagePNG", "CSixel"],
            swiftSettings: swiftSettings),

        // MARK: Command-line tool.
        .executableTarget(
            name: "webimage",
            dependencies: [
                "WebImageKit", "WebImageTerminal", "WebImageRedis", "WebImageServer", "WebImagePNM",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings,
            // The static Swift runtime links with --export-dynamic: ~49,000 symbols in the dynamic
            // table, which every start's symbol lookups and the runtime's dladdr walk. Nothing
            // looks the tool's symbols up at run time (docs/performance.md, "Start-up time").
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux]))]),

        // MARK: Tests.
        .testTarget(
            name: "WebImageTests",
            dependencies: ["WebImage", "WebImageTesting", .product(name: "MetricsTestKit", package: "swift-metrics")],
            swiftSettings: swiftSettings),
        .testTarget(name: "WebImageJPEGTests", dependencies: ["WebImageJPEG", "WebImageTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "WebImagePNGTests", dependencies: ["WebImagePNG", "WebImageTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "WebImageGIFTests", dependencies: ["WebImageGIF", "WebImageTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "WebImageWebPTests", dependencies: ["WebImageWebP", "WebImageTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "WebImageJXLTests", dependencies: ["WebImageJXL", "WebImageTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "WebImageTIFFTests", dependencies: ["WebImageTIFF", "WebImageTesting"], swiftSettings: swiftSettings),
        .testTarget(
            name: "WebImagePNMTests", dependencies: ["WebImagePNM", "WebImageCodecs", "WebImageTesting"], swiftSettings: swiftSettings),
        .testTarget(
            name: "WebImageSVGTests",
            dependencies: ["WebImageSVG", "WebImageTesting", "WebImageHTTPTesting", "CSVGABICheck", "webimage-svg-render"],
            swiftSettings: swiftSettings),
        .testTarget(name: "WebImageAVIFTests", dependencies: ["WebImageAVIF", "WebImageTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "WebImageHEIFTests", dependencies: ["WebImageHEIF", "WebImageTesting"], swiftSettings: swiftSettings),
        .testTarget(
            name: "WebImageColorTests", dependencies: ["WebImageColor", "WebImageCodecs", "WebImageTesting"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WebImageCodecsTests",
            dependencies: ["WebImageCodecs", "WebImageTesting", "CLibraryLoader"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WebImageDiskCacheTests",
            dependencies: [
                "WebImageDiskCache", "WebImageTesting", "webimage-cache-stress",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WebImageHTTPTests",
            dependencies: [
                "WebImageHTTP", "WebImageHTTPTesting", "WebImageHTTPCookies", "WebImageTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WebImageManagerTests",
            dependencies: [
                "WebImageKit", "WebImageHTTPTesting", "WebImageTesting", "WebImageHTTPCookies",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WebImageCLITests",
            dependencies: [
                "webimage", "webimage-peak-rss", "webimage-player-probe", "webimage-svg-render", "WebImageCodecs", "WebImagePNM",
                "WebImageHTTP", "WebImageHTTPTesting",
                "WebImageTesting",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WebImageServerTests",
            dependencies: [
                "WebImageServer", "WebImageKit", "WebImageRedis", "WebImageHTTPTesting", "WebImageTesting", "webimage-svg-render",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WebImageTerminalTests", dependencies: ["WebImageTerminal", "WebImageTesting", "CSixel"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WebImageFuzzingTests", dependencies: ["WebImageFuzzing", "WebImageCodecs", "webimage-svg-render"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "WebImageRedisTests",
            dependencies: [
                "WebImageRedis", "WebImageKit", "WebImageTesting", "WebImageHTTPTesting", "webimage",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ConformanceTests",
            dependencies: [
                "WebImageCodecs", "WebImageJPEG", "WebImageTesting", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings),
    ]
)
