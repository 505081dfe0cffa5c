import Foundation
import WebImage
import WebImageCodecs
import WebImageTesting

/// Drives the colour path with the input as an ICC profile: embedded in a JPEG (APP2) and a PNG
/// (`iCCP`) and decoded through the standard coders under ``WebImage/ColorPolicy/sRGB`` (the
/// readers, lcms2's parser and the transform), then applied directly by the converter.
///
/// The contracts: every failure is a typed ``WebImageError``; a decode keeps the image's size and
/// alpha; a profile the converter cannot use leaves the pixels as stored.
enum ColorProfileExercise {
    static let coders = ImageCodersManager.standard()
    static let pixels = ImageFixtures.gradient(width: 8, height: 6)
    static let jpeg: Data = (try? coders.encode(Image(pixels: pixels), as: .jpeg, options: .init())) ?? Data()

    static func run(_ input: Data) -> FuzzOutcome {
        guard let profile = ColorProfile(iccData: input) else { return .rejected(.badImageData) }
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
}
