import Foundation
import Testing
import WebImage
import WebImageCodecs
import WebImageTesting

/// Issue 26's proof: every valid corpus file that carries a colour profile, decoded to sRGB by
/// default, is within a mean CIEDE2000 of 1.0 and a 99th percentile of 3.0 of lcms2's own
/// double-precision conversion of the same stored pixels through the same profile. The table it
/// prints (also in the README) puts today's figures beside those of ignoring the profile.
@Suite("Corpus colour management", .corpusAvailable)
struct ColorConformanceTests {
    /// Files whose profile Pillow reports but which are not colour-managed on purpose.
    static let excepted: [String: String] = [
        "image-png/iccp/broken_iccp.png": "the iCCP chunk's profile is corrupt: shown as stored, as browsers do",
    ]

    struct Row {
        let file: String
        let profile: String
        let managed: ColorReference.DeltaE
        let ignored: ColorReference.DeltaE
    }

    @Test("profiles are applied within ΔE2000 mean 1.0 and p99 3.0 of lcms2's double-precision conversion")
    func profilesAreApplied() throws {
        guard let manifest = try CorpusManifest.required() else { return }
        let coders = ImageCodersManager.standard()
        var rows: [Row] = []
        var failures: [String] = []
        for entry in manifest.files where entry.pillow?.icc_profile == true && entry.expected_validity == "valid" {
            if let reason = Self.excepted[entry.file] {
                print("colour: \(entry.file) excepted: \(reason)")
                continue
            }
            let data = try Data(contentsOf: CorpusManifest.directory.appendingPathComponent(entry.file))
            do {
                guard let row = try Self.measure(entry.file, data: data, coders: coders) else { continue }
                rows.append(row)
                if row.managed.mean > 1.0 || row.managed.p99 > 3.0 { failures.append("\(entry.file): \(row.managed)") }
            } catch {
                failures.append("\(entry.file): \(error)")
            }
        }
        print(Self.table(rows))
        #expect(rows.count >= 20, "only \(rows.count) corpus files with a usable profile were measured")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// The file's sRGB decode against lcms2's conversion of its stored pixels; nil when the
    /// profile is sRGB already or describes nothing the pixels are in (a CMYK profile on an RGB
    /// JPEG: ignored, as every decoder does).
    static func measure(_ file: String, data: Data, coders: ImageCodersManager) throws -> Row? {
        var options = ImageDecodingOptions()
        options.firstFrameOnly = true
        options.colorPolicy = .sRGB
        let managed = try coders.decode(data, options: options)
        options.colorPolicy = .ignore
        let stored = try coders.decode(data, options: options)
        let header = try coders.readHeader(data)
        guard let profile = header.colorProfile else {
            print("colour: \(file): no usable ICC profile (Pillow's bytes are not one, or it does not describe the stored pixels)")
            return nil
        }
        // Every pixel of small files, an even sample of at most ~250,000 of large ones (debug builds measure slowly).
        let step = max(1, managed.pixels.width * managed.pixels.height / 250_000)
        func sample(_ pixels: PixelBuffer) -> [UInt8] {
            let bytes = pixels.unpremultiplied().bytes
            guard step > 1 else { return bytes }
            return stride(from: 0, to: bytes.count / 4, by: step).flatMap { bytes[$0 * 4..<$0 * 4 + 4] }
        }
        let reference: [Double]?
        if profile.colorSpace == .cmyk {
            let recorder = CMYKSampleRecorder()
            _ = try JPEGCoder(colorConverter: recorder).decode(data, options: ImageDecodingOptions())
            let inks = try #require(recorder.recorded, "\(file): no CMYK samples")
            let samples = step == 1 ? inks.samples : stride(from: 0, to: inks.samples.count / 4, by: step).flatMap { inks.samples[$0 * 4..<$0 * 4 + 4] }
            reference = ColorReference.sRGB(cmyk: samples, inverted: inks.inverted, profile: profile)
        } else {
            reference = ColorReference.sRGB(rgba: sample(stored.pixels), profile: profile)
        }
        guard let reference else {
            // A profile lcms2 cannot use is shown as stored, as browsers do.
            #expect(managed.pixels == stored.pixels, "\(file): lcms2 cannot use its profile, yet the pixels changed")
            print("colour: \(file): lcms2 cannot use its profile (\(profile.name ?? "unnamed")); shown as stored")
            return nil
        }
        return Row(
            file: file, profile: profile.name ?? "unnamed \(profile.colorSpace.rawValue)",
            managed: ColorReference.difference(sample(managed.pixels), reference: reference),
            ignored: ColorReference.difference(sample(stored.pixels), reference: reference))
    }

    static func table(_ rows: [Row]) -> String {
        var lines = [
            "| file | profile | ΔE2000 mean / p99, sRGB (default) | ΔE2000 mean / p99, profile ignored |",
            "|---|---|---|---|",
        ]
        for row in rows.sorted(by: { $0.ignored.mean > $1.ignored.mean }) {
            func pair(_ value: ColorReference.DeltaE) -> String { String(format: "%.2f / %.2f", value.mean, value.p99) }
            lines.append("| \(row.file) | \(row.profile) | \(pair(row.managed)) | \(pair(row.ignored)) |")
        }
        return lines.joined(separator: "\n")
    }
}
