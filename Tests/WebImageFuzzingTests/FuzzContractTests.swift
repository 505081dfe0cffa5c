import Foundation
import Testing
@testable import WebImageFuzzing
import WebImageCodecs

/// The checks the fuzz targets make are real: each broken contract is reported, and the input
/// repairs let mutated inputs through the integrity checks they would otherwise stop at.
@Suite struct FuzzContractTests {
    struct ForeignError: Error {}

    /// A decoder that breaks one contract on purpose.
    struct BrokenDecoder: ImageDecoding {
        enum Fault: Sendable { case foreignError, oversizedThumbnail, shortBuffer }
        let fault: Fault

        func canDecode(_ data: Data) -> Bool { true }
        func decode(_ data: Data, options: ImageDecodingOptions) throws -> Image {
            switch fault {
            case .foreignError:
                throw ForeignError()
            case .oversizedThumbnail:
                return Image(pixels: PixelBuffer(width: 64, height: 64, alphaMode: .premultiplied))
            case .shortBuffer:
                var pixels = PixelBuffer(width: 2, height: 2, alphaMode: .premultiplied)
                pixels.bytes.removeLast()
                return Image(pixels: pixels)
            }
        }
    }

    @Test func foreignErrorIsAViolation() {
        let outcome = DecoderExercise(decoder: BrokenDecoder(fault: .foreignError)).run(Data([1, 2, 3]))
        #expect(outcome.isViolation)
        #expect(outcome.description.contains("ForeignError"))
    }

    @Test func thumbnailLargerThanAskedIsAViolation() {
        let outcome = DecoderExercise(decoder: BrokenDecoder(fault: .oversizedThumbnail)).run(Data([1]))
        #expect(outcome == .contractViolation("thumbnail 64×64 does not fit in 23×17"))
    }

    @Test func bufferShorterThanItsSizeIsAViolation() {
        let outcome = DecoderExercise(decoder: BrokenDecoder(fault: .shortBuffer)).run(Data([1]))
        #expect(outcome == .contractViolation("still image: 15 bytes for 2×2"))
    }

    @Test func garbageIsRejectedWithATypedCode() {
        #expect(FuzzTarget.coders.run(Data("not an image".utf8)) == .rejected(.badImageData))
        #expect(FuzzTarget.dataURL.run(Data("http://x/".utf8)) == .rejected(.invalidURL))
    }

    @Test func pngWithBrokenCRCsDecodesOnceRepaired() throws {
        var png = [UInt8](try FuzzTarget.png.seeds()[0].data)
        // Flip one byte of IHDR's CRC (signature 8 + length 4 + type 4 + data 13).
        png[8 + 4 + 4 + 13] ^= 0xFF
        #expect(throws: WebImageError.self) { try PNGCoder().decode(Data(png)) }
        #expect(FuzzTarget.png.run(Data(png)) == .accepted)
    }

    @Test func webpWithWrongRIFFSizeDecodesOnceRepaired() throws {
        let good = try FuzzTarget.webp.seeds()[0].data
        var webp = [UInt8](good)
        webp[4] &+= 9  // the RIFF size now claims bytes that are not there
        #expect(throws: WebImageError.self) { try WebPCoder().decode(Data(webp)) }
        #expect(InputRepair.riffSizeRepaired(Data(webp)) == good)
        #expect(FuzzTarget.webp.run(Data(webp)) == .accepted)
    }

    @Test func repairLeavesOtherFormatsAlone() {
        let bytes = Data("GIF89a and then some".utf8)
        #expect(InputRepair.pngCRCsRepaired(bytes) == bytes)
        #expect(InputRepair.riffSizeRepaired(bytes) == bytes)
    }

    @Test func dataURLRoundTripsArbitraryBytes() {
        let bytes = Data((0...255).map { UInt8($0) })
        #expect(!FuzzTarget.dataURL.run(bytes).isViolation)
    }

    @Test("icc: bytes that are no profile are rejected; a profile lcms2 refuses is ignored, never fatal")
    func iccTarget() throws {
        #expect(FuzzTarget.icc.run(Data("not a profile".utf8)) == .rejected(.badImageData))
        var broken = [UInt8](try FuzzTarget.icc.seeds()[0].data)
        for index in 132..<broken.count { broken[index] = UInt8(truncatingIfNeeded: index &* 77) }
        #expect(FuzzTarget.icc.run(Data(broken)) == .accepted)
    }

    @Test("icc: a CMYK profile goes through the CMYK path; the first bytes make code-point and gAMA/cHRM profiles lcms2 accepts")
    func iccTargetCMYKAndDescribedSpaces() throws {
        let standard = try #require(LCMSColorConverter.shared.standardCMYKProfile, "no standard CMYK profile (libgs-common)")
        #expect(FuzzTarget.icc.run(standard.data) == .accepted)
        // Display P3 code points, then gAMA 1.0 and P3's chromaticities as big-endian words.
        var described: [UInt8] = [12, 13, 0x86, 0xA0]
        for value: UInt32 in [31270, 32900, 68000, 32000, 26500, 69000, 15000, 6000] {
            described += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        #expect(ColorProfileExercise.describedSpaces(Data(described)) == nil)
        #expect(FuzzTarget.icc.run(Data(described)) == .rejected(.badImageData))
    }

    @Test("metadata: bytes that are no EXIF, XMP or IPTC are rejected; damaged seeds never break a contract")
    func metadataTarget() throws {
        #expect(FuzzTarget.metadata.run(Data("plain words".utf8)) == .rejected(.badImageData))
        for seed in try FuzzTarget.metadata.seeds() {
            var bytes = [UInt8](seed.data)
            // Every byte in turn set to 0xFF, one at a time: offsets, counts and types out of range.
            for index in stride(from: 0, to: bytes.count, by: 7) {
                let saved = bytes[index]
                bytes[index] = 0xFF
                #expect(!FuzzTarget.metadata.run(Data(bytes)).isViolation, "\(seed.name) with byte \(index) at 0xFF")
                bytes[index] = saved
            }
        }
    }
}
