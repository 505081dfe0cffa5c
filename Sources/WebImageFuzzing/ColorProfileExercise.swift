import Foundation
import WebImage
import WebImageCodecs
import WebImageTesting

/// Drives the colour path with the input as an ICC profile: embedded in a JPEG (APP2) and a PNG
/// (`iCCP`) and decoded through the standard coders under ``WebImage/ColorPolicy/sRGB`` (the
/// readers, lcms2's parser and the transform), then applied directly by the converter.
///
/// The contracts: every failure is a typed ``WebImageError``; a decode keeps the image's size and
/// alpha; a profile the converter cannot use leaves the pixels as stored; CMYK conversion through
/// the profile keeps the size and makes opaque pixels. The input's first bytes are also read as
/// H.273 code points and as PNG `gAMA`/`cHRM` values: a profile written from them must be one
/// lcms2 converts.
enum ColorProfileExercise {
    static let coders = ImageCodersManager.standard()
    static let pixels = ImageFixtures.gradient(width: 8, height: 6)
    static let jpeg: Data = (try? coders.encode(Image(pixels: pixels), as: .jpeg, options: .init())) ?? Data()

    static func run(_ input: Data) -> FuzzOutcome {
        if let violation = describedSpaces(input) { return .contractViolation(violation) }
        guard let profile = ColorProfile(iccData: input) else { return .rejected(.badImageData) }
        if profile.colorSpace == .cmyk, let violation = cmyk(profile) { return .contractViolation(violation) }
        var options = ImageDecodingOptions()
        options.colorPolicy = .sRGB
        var png = [UInt8](TestPNG.rgba(width: 8, height: 6) { x, y in [x * 30, y * 40, 90, 255] })
        png.insert(contentsOf: TestPNG.chunk("iCCP", Array("fuzz\0\0".utf8) + TestPNG.zlib([UInt8](input))), at: 33)
        for (name, file) in [("jpeg", TestColorProfiles.embedding(profile, inJPEG: jpeg)), ("png", Data(png))] {
            do {
                let image = try coders.decode(file, options: options)
                guard image.pixelSize == PixelSize(width: 8, height: 6), image.colorProfile == nil else {
                    return .contractViolation("\(name): decoded \(image.pixelSize), profile kept: \(image.colorProfile != nil)")
                }
            } catch let error as WebImageError {
                return .contractViolation("\(name): a profile made the decode fail (\(error)); it should be ignored")
            } catch {
                return .contractViolation("\(name): decode threw \(type(of: error)), not WebImageError: \(error)")
            }
        }
        do {
            let converted = try LCMSColorConverter().convertToSRGB(Image(pixels: pixels, colorProfile: profile))
            guard converted.pixelSize == pixels.size, converted.pixels.bytes.count == pixels.bytes.count else {
                return .contractViolation("conversion changed the size: \(converted.pixelSize)")
            }
            let alpha = stride(from: 3, to: pixels.bytes.count, by: 4)
            guard alpha.allSatisfy({ converted.pixels.bytes[$0] == pixels.bytes[$0] }) else {
                return .contractViolation("conversion changed alpha")
            }
        } catch let error as WebImageError {
            return .rejected(error.code)
        } catch {
            return .contractViolation("conversion threw \(type(of: error)), not WebImageError: \(error)")
        }
        return .accepted
    }

    /// Profiles written by the core from code points and gAMA/cHRM values taken from `input`.
    static func describedSpaces(_ input: Data) -> String? {
        let bytes = [UInt8](input.prefix(36))
        guard bytes.count == 36 else { return nil }
        func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        let written = [
            ColorProfile(codePoints: .init(primaries: Int(bytes[0]), transfer: Int(bytes[1]))),
            ColorProfile(pngGamma: word(0) & 0xF_FFFF, chromaticities: (1...8).map { word($0 * 4) % 100_000 }),
            ColorProfile(pngGamma: word(0) & 0xF_FFFF, chromaticities: nil),
        ]
        for profile in written.compactMap({ $0 }) {
            guard profile.colorSpace == .rgb else { return "a written profile is \(profile.colorSpace), not RGB" }
            do {
                _ = try LCMSColorConverter().isSRGB(profile)
            } catch {
                return "lcms2 cannot use a profile the core wrote (\(error))"
            }
        }
        return nil
    }

    /// CMYK inks through `profile` (both storages): the size kept, every pixel opaque.
    static func cmyk(_ profile: ColorProfile) -> String? {
        let converter = LCMSColorConverter(standardCMYKProfile: nil)
        for inverted in [false, true] {
            var inks = pixels.bytes
            let converted = inks.withUnsafeMutableBufferPointer {
                converter.convertCMYKToSRGB($0, profile: profile, inverted: inverted)
            }
            if converted, !stride(from: 3, to: inks.count, by: 4).allSatisfy({ inks[$0] == 255 }) {
                return "CMYK conversion left a pixel not opaque"
            }
            if !converted, inks != pixels.bytes { return "a CMYK conversion that failed changed the inks" }
        }
        return nil
    }
}
