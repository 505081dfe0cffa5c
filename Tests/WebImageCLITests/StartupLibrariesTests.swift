import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// The codec libraries behind AVIF, HEIF and JPEG XL are loaded on first use, not at start, and SVG's in a
/// process of its own: glibc's loader names every library it maps when `LD_DEBUG=files` is set.
@Suite("Codec libraries load on first use", .timeLimit(.minutes(3)))
struct StartupLibrariesTests {
    /// The libraries `webimage` maps while running `arguments`, from the dynamic loader's own report.
    static func librariesLoaded(by arguments: [String], in directory: URL) async throws -> (CLIRun, [String]) {
        let run = try await CLI.run(arguments, in: directory, environment: ["LD_DEBUG": "files"])
        let names = run.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " && $0 != "\t" && $0 != ";" })
        }
        return (run, names)
    }

    @Test func aPNGToJPEGConversionMapsNoneOfThem() async throws {
        #if os(Linux)
            try await withTemporaryDirectory { directory in
                let png = try ImageCodersManager.standard()
                    .encode(Image(pixels: ImageFixtures.translucentGradient(width: 16, height: 8)), as: .png, options: .init())
                try png.write(to: directory.appendingPathComponent("a.png"))
                let (run, libraries) = try await Self.librariesLoaded(by: ["convert", "a.png", "b.jpg"], in: directory)
                #expect(run.status == 0, "\(run.stderr.suffix(2000))")
                #expect(libraries.contains { $0.hasPrefix("libjpeg") }, "the loader's report is read: \(libraries)")
                for lazy in ["libavif", "libheif", "libjxl", "librsvg", "libcairo", "libglib", "liblcms2"] {
                    #expect(!libraries.contains { $0.hasPrefix(lazy) }, "\(lazy) mapped at start: \(libraries)")
                }
            }
        #endif
    }

    @Test(arguments: [("b.avif", "libavif"), ("b.heic", "libheif"), ("b.jxl", "libjxl")])
    func writingTheFormatLoadsItsLibraryThen(output: String, library: String) async throws {
        #if os(Linux)
            try await withTemporaryDirectory { directory in
                let source = ImageFixtures.translucentGradient(width: 16, height: 8)
                let coders = ImageCodersManager.standard()
                try coders.encode(Image(pixels: source), as: .png, options: .init())
                    .write(to: directory.appendingPathComponent("a.png"))
                let (run, libraries) = try await Self.librariesLoaded(by: ["convert", "a.png", output], in: directory)
                #expect(run.status == 0, "\(run.stderr.suffix(2000))")
                #expect(libraries.contains { $0.hasPrefix(library) }, "\(library) not loaded: \(libraries)")
                let decoded = try coders.decode(Data(contentsOf: directory.appendingPathComponent(output)))
                #expect(decoded.pixelSize == source.size)
            }
        #endif
    }

    /// librsvg runs in the `webimage-svg-render` process (issue 25): `webimage` itself never maps it.
    @Test func readingAnSVGRendersItInTheRendererProcess() async throws {
        #if os(Linux)
            try await withTemporaryDirectory { directory in
                try Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"24\" height=\"12\"/>".utf8)
                    .write(to: directory.appendingPathComponent("a.svg"))
                let (run, libraries) = try await Self.librariesLoaded(by: ["convert", "a.svg", "b.png"], in: directory)
                #expect(run.status == 0, "\(run.stderr.suffix(2000))")
                #expect(libraries.contains { $0.hasPrefix("libpng") }, "the loader's report is read: \(libraries)")
                for isolated in ["librsvg", "libcairo", "libpango"] {
                    #expect(!libraries.contains { $0.hasPrefix(isolated) }, "\(isolated) mapped by webimage: \(libraries)")
                }
                let decoded = try ImageCodersManager.standard().decode(Data(contentsOf: directory.appendingPathComponent("b.png")))
                #expect(decoded.pixelSize == PixelSize(width: 24, height: 12))
            }
        #endif
    }
}
