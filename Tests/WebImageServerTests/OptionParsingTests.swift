import Foundation
import Testing
import WebImageKit

@testable import WebImageServer

@Suite("Service: URL grammar")
struct OptionParsingTests {
    @Test("aliases and argument forms give one canonical key")
    func aliases() throws {
        let short = try ProcessingOptions(segments: ["rs:fill:300:200:1", "g:sm", "q:70", "bl:2", "fl:1:0"])
        let long = try ProcessingOptions(segments: ["resizing_type:fill", "width:300", "height:200", "enlarge:true", "gravity:attention", "quality:70", "blur:2", "flip:h"])
        #expect(short == long)
        #expect(short.canonicalKey == long.canonicalKey)
        #expect(short.resizingType == .fill && short.width == 300 && short.height == 200 && short.enlarge)
        #expect(short.gravity == .attention)
        #expect(short.effects == [.blur(sigma: 2)])
        #expect(try ProcessingOptions(segments: ["w:300"]).canonicalKey != short.canonicalKey)
    }

    @Test("every transformer has an option")
    func transformers() throws {
        let options = try ProcessingOptions(segments: [
            "sh:1.5", "rc:12:2:ff0000", "ci:1", "tn:00ff0080:multiply", "gs:0.5", "sp", "br:1.2", "co:0.8", "sa:2", "iv:1",
            "rot:30", "fl:hv", "c:100:50:soea", "fi:mitchell", "bg:255:255:0", "pd:1",
        ])
        #expect(options.effects.count == 10)
        #expect(options.effects[1] == .roundCorner(radius: 12, border: 2, color: RGBA8(r: 255, g: 0, b: 0)))
        #expect(options.effects[3] == .tint(RGBA8(r: 0, g: 255, b: 0, a: 128), .multiply))
        #expect(options.rotate == 30 && options.flipHorizontal && options.flipVertical)
        #expect(options.crop == ProcessingOptions.Crop(width: 100, height: 50, gravity: .gravity(.southEast)))
        #expect(options.filter == .mitchell)
        #expect(options.background == RGBA8(r: 255, g: 255, b: 0))
        #expect(options.pad)
    }

    @Test("canonical keys are the ones earlier versions made (cache entries and ETags stay valid)")
    func pinnedKeys() throws {
        let everything = try ProcessingOptions(segments: [
            "sh:1.5", "rc:12:2:ff0000", "ci:1", "tn:00ff0080:multiply", "gs:0.5", "sp", "br:1.2", "co:0.8", "sa:2", "iv:1",
            "rot:30", "fl:hv", "c:100:50:soea", "fi:mitchell", "bg:255:255:0", "pd:1", "q:80", "bl:2",
        ])
        #expect(everything.canonicalKey == "rs:fit:0:0:0:1/g:center/c:100:50:southEast/fi:mitchell/rot:30.0/fl:1:1/q:80/bg:ffff00ff"
            + "/sh:1.5/rc:12.0:2.0:ff0000ff/ci:0.0:000000ff/tn:00ff0080:multiply/gs:0.5/sp:1.0/br:1.2/co:0.8/sa:2.0/iv:1.0/bl:2.0")
        let crop = try ProcessingOptions(segments: ["rs:fill:300:200", "g:sm", "c:0:40", "fl:0:1", "ci:0", "rot:-90"])
        #expect(crop.canonicalKey == "rs:fill:300:200:0:0/g:sm/c:0:40:-/rot:-90.0/fl:0:1")
        #expect(crop.effects.isEmpty && crop.crop == ProcessingOptions.Crop(width: 0, height: 40))
    }

    @Test("geometry and effects are the core's Edit: rotate, flip and crop keep their fixed places, the last of each wins")
    func editsInOptions() throws {
        let options = try ProcessingOptions(segments: ["bl:1", "rot:90", "tn:red", "rot:180", "fl:h", "fl:v", "c:10:10", "c:20:20:no"])
        #expect(options.effects == [.blur(sigma: 1), .tint(RGBA8(r: 255, g: 0, b: 0), .normal)])
        #expect(options.rotate == 180 && !options.flipHorizontal && options.flipVertical)
        #expect(options.crop == ProcessingOptions.Crop(width: 20, height: 20, gravity: .gravity(.north)))
        #expect(options.editTransformers(maxPixelCount: 1000).map(\.key) == [
            RotateTransformer(degrees: 180).key, FlipTransformer(vertical: true).key,
            GaussianBlurTransformer(sigma: 1).key, TintTransformer(color: RGBA8(r: 255, g: 0, b: 0)).key,
        ])
        // The command line's spellings read the same in URLs, except an offset crop.
        #expect(try ProcessingOptions(segments: ["c:20x20"]).crop == ProcessingOptions.Crop(width: 20, height: 20))
        for bad in ["c:20x20+1+1", "rot:4000", "bl:x", "ci:1:x"] {
            #expect(throws: WebImageError.self, "\(bad)") { try ProcessingOptions(segments: [Substring(bad)]) }
        }
    }

    @Test("paths: plain with @ext, base64 with .ext, queries outside")
    func paths() throws {
        let plain = try ImagePath(parsing: "/sig/rs:fit:10:10/q:5/plain/https%3A%2F%2Fexample.com%2Fa%40b.jpg@webp")
        #expect(plain.signature == "sig")
        #expect(plain.signedPart == "/rs:fit:10:10/q:5/plain/https%3A%2F%2Fexample.com%2Fa%40b.jpg@webp")
        #expect(plain.optionSegments == ["rs:fit:10:10", "q:5"])
        #expect(plain.source == "https://example.com/a@b.jpg")
        #expect(plain.extensionFormat == .webp)

        let raw = try ImagePath(parsing: "/sig/plain/http://example.com/x/y.png")
        #expect(raw.source == "http://example.com/x/y.png")
        #expect(raw.extensionFormat == nil)

        let encoded = Data("https://example.com/cat.jpg".utf8).base64URLEncodedString()
        let base64 = try ImagePath(parsing: Substring("/sig/w:5/" + encoded.prefix(8) + "/" + encoded.dropFirst(8) + ".png"))
        #expect(base64.source == "https://example.com/cat.jpg")
        #expect(base64.extensionFormat == .png)

        #expect(throws: (any Error).self) { try ImagePath(parsing: "/sig") }
        #expect(throws: (any Error).self) { try ImagePath(parsing: "/sig/w:10/plain/") }
        #expect(throws: (any Error).self) { try ImagePath(parsing: "/sig/w:10/!!!.png") }
    }

    @Test("Accept parsing: q=0 refuses, parameters and case ignored")
    func accept() {
        let types = OutputChoice.acceptedTypes("image/AVIF;q=0, image/webp;q=0.5 ,*/*")
        #expect(types == ["image/webp", "*/*"])
        let encodable: (ImageFormat) -> Bool = { _ in true }
        #expect(OutputChoice.negotiate(.auto, accept: "image/avif,image/webp", canEncode: encodable, prefersAVIF: true) == .format(.avif))
        #expect(OutputChoice.negotiate(.auto, accept: "image/avif,image/webp", canEncode: encodable, prefersAVIF: false) == .format(.webp))
        #expect(OutputChoice.negotiate(.auto, accept: "*/*", canEncode: encodable, prefersAVIF: true) == .sourceFormat)
        #expect(OutputChoice.negotiate(.explicit(.png), accept: "image/webp", canEncode: encodable, prefersAVIF: true) == .format(.png))
        let browser = "image/jxl,image/avif,image/webp,*/*"
        #expect(OutputChoice.negotiate(.auto, accept: browser, canEncode: encodable, prefersAVIF: true) == .format(.avif))
        #expect(OutputChoice.negotiate(.auto, accept: browser, canEncode: encodable, prefersAVIF: true, offersJXL: true) == .format(.jpegXL))
        #expect(OutputChoice.negotiate(.auto, accept: "image/jxl;q=0,image/webp", canEncode: encodable, prefersAVIF: true, offersJXL: true) == .format(.webp))
        let noJXL: (ImageFormat) -> Bool = { $0 != .jpegXL }
        #expect(OutputChoice.negotiate(.auto, accept: browser, canEncode: noJXL, prefersAVIF: false, offersJXL: true) == .format(.webp))
    }
}
