import Foundation
import Testing
import WebImage
import WebImageCodecs

/// The strict lossless round trip: for every valid PNG, APNG, GIF and lossless WebP of the corpus,
/// decode (default options) → encode PNG → decode gives exactly the straight RGBA that the
/// manifest's checksum describes; for animations, the re-encoded APNG gives back every frame
/// bit for bit. Every file that is not exact fails the test, unless ``exception(for:)`` names the
/// library limit that explains it; such files are listed in the printed figure.
struct StrictRoundTrip {
    /// Why a covered file cannot round-trip exactly (a real library limit), or nil.
    static func exception(for entry: CorpusManifest.Entry) -> String? {
        KnownDeviations.libraryLimit(entry)
    }

    let entry: CorpusManifest.Entry
    let coders: ImageCodersManager

    /// Whether the manifest entry is a lossless file the strict check covers.
    static func covers(_ entry: CorpusManifest.Entry) -> Bool {
        guard entry.expected_validity == "valid" else { return false }
        switch entry.format {
        case "png", "apng", "gif": return true
        case "webp": return entry.lossy == false
        default: return false
        }
    }

    enum Outcome {
        case exact
        case failed(String)
    }

    func run(_ data: Data) -> Outcome {
        do {
            // The manifest's checksums are of the stored pixels, without colour management.
            var stored = ImageDecodingOptions()
            stored.colorPolicy = .ignore
            let image = try coders.decode(data, options: stored)
            guard image.pixels.alphaMode == .straight else {
                return .failed("decoded \(image.pixels.alphaMode) by default, not straight")
            }
            let exact = entry.rgba8_sha256_spec ?? entry.rgba8_sha256
            let zeroed = entry.rgba8_zeroed_sha256_spec ?? entry.rgba8_zeroed_sha256
            guard exact != nil || zeroed != nil else { return .failed("the manifest has no checksum") }
            if !Self.matches(image.pixels, exact: exact, zeroed: zeroed) {
                return .failed("the first decode differs from the manifest's checksum")
            }

            // The pixels as stored: encoders apply an EXIF orientation (PNG's eXIf), which
            // is the encoders' business, not the lossless round trip's.
            let upright = Image(
                pixels: image.pixels, format: image.format, animation: image.animation, hasAlpha: image.hasAlpha,
                originalPixelSize: image.originalPixelSize)
            let still = try coders.encode(upright, as: .png, options: ImageEncodingOptions(firstFrameOnly: true))
            let again = try coders.decode(still)
            if !Self.matches(again.pixels, exact: exact, zeroed: zeroed) {
                return .failed("first frame after PNG round trip: \(Self.describeDifference(image.pixels, again.pixels))")
            }
            if let animation = image.animation, animation.frameCount > 1 {
                let apng = try coders.encode(upright, as: .png, options: ImageEncodingOptions())
                guard let replayed = try coders.decode(apng).animation, replayed.frameCount == animation.frameCount else {
                    return .failed("APNG round trip lost the animation")
                }
                for index in 0..<animation.frameCount {
                    let before = try animation.frame(at: index).pixels
                    let after = try replayed.frame(at: index).pixels
                    if before != after {
                        return .failed("frame \(index) after APNG round trip: \(Self.describeDifference(before, after))")
                    }
                }
            }
            return .exact
        } catch {
            return .failed("\(error)")
        }
    }

    static func matches(_ pixels: PixelBuffer, exact: String?, zeroed: String?) -> Bool {
        if let exact, PixelDigest.sha256(pixels) == exact { return true }
        if let zeroed, PixelDigest.zeroedSHA256(pixels) == zeroed { return true }
        return false
    }

    /// How many pixels differ, and the first one.
    static func describeDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> String {
        guard a.size == b.size else { return "size \(b.size), expected \(a.size)" }
        var differing = 0
        var first: (Int, Int)?
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] {
                differing += 1
                if first == nil { first = (x, y) }
            }
        }
        guard let (x, y) = first else { return "alpha mode \(b.alphaMode), expected \(a.alphaMode)" }
        return "\(differing) pixels differ, first at (\(x), \(y)): \(b[x, y]) instead of \(a[x, y])"
    }
}

extension CorpusConformanceTests {
    @Test("Strict lossless round trip: decode → PNG → decode is bit-exact straight RGBA")
    func strictLosslessRoundTrip() throws {
        guard let manifest = try CorpusManifest.required() else { return }
        let formats = ProcessInfo.processInfo.environment["WEBIMAGE_CONFORMANCE_FORMATS"].map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        } ?? Self.supportedFormats
        let coders = ImageCodersManager.standard()
        var exact: [String: Int] = [:]
        var total: [String: Int] = [:]
        var failures: [String] = []
        var excepted: [String] = []
        for entry in manifest.files where StrictRoundTrip.covers(entry) && formats.contains(entry.format) {
            let kind = entry.format == "webp" ? "lossless webp" : entry.format
            total[kind, default: 0] += 1
            let data = try Data(contentsOf: CorpusManifest.directory.appendingPathComponent(entry.file))
            switch StrictRoundTrip(entry: entry, coders: coders).run(data) {
            case .exact:
                exact[kind, default: 0] += 1
            case .failed(let reason):
                if let limit = StrictRoundTrip.exception(for: entry) {
                    excepted.append("\(entry.file) (\(limit))")
                } else {
                    failures.append(entry.file)
                    print("strict round trip FAIL \(entry.file): \(reason)")
                    Issue.record("\(entry.file): strict round trip: \(reason)")
                }
            }
        }
        let perFormat = total.keys.sorted().map { "\($0) \(exact[$0, default: 0])/\(total[$0, default: 0])" }
        var line = "strict lossless round trip: \(exact.values.reduce(0, +)) of \(total.values.reduce(0, +)) exact"
        line += " (" + perFormat.joined(separator: ", ") + ")"
        line += "; failures: " + (failures.isEmpty ? "none" : failures.joined(separator: ", "))
        line += "; library limits: " + (excepted.isEmpty ? "none" : excepted.joined(separator: "; "))
        print(line)
    }
}
