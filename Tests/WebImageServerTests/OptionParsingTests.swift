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
    }
}
