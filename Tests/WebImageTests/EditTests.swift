import Testing
import WebImage

@Suite("Edit: one vocabulary for URL options and command-line flags")
struct EditTests {
    /// One written form of every step, with the canonical key it must keep (the service's cache
    /// entries and ETags are made of these keys: they must not change).
    static let samples: [(segment: String, key: String)] = [
        ("bl:2", "bl:2.0"), ("blur:0.5", "bl:0.5"),
        ("sh", "sh:1.0"), ("sh:1.5", "sh:1.5"),
        ("rc:12", "rc:12.0:0.0:000000ff"), ("round_corner:12:2:ff0000", "rc:12.0:2.0:ff0000ff"),
        ("rc:4:1:255:0:0", "rc:4.0:1.0:ff0000ff"),
        ("ci:1", "ci:0.0:000000ff"), ("circle:1:3:white", "ci:3.0:ffffffff"), ("ci", "ci:0.0:000000ff"),
        ("tn:00ff0080:multiply", "tn:00ff0080:multiply"), ("tint:%23f80", "tn:ff8800ff:normal"),
        ("tn:0:128:255:screen", "tn:0080ffff:screen"),
        ("gs", "gs:1.0"), ("grayscale:0.5", "gs:0.5"), ("sp", "sp:1.0"), ("iv:1", "iv:1.0"),
        ("br:1.2", "br:1.2"), ("co:0.8", "co:0.8"), ("saturation:2", "sa:2.0"),
        ("rot:30", "rot:30.0"), ("rotate:-90", "rot:-90.0"),
        ("fl:h", "fl:1:0"), ("flip:vh", "fl:1:1"), ("fl:0:1", "fl:0:1"),
        ("c:100:50:soea", "c:100:50:southEast"), ("crop:0:40", "c:0:40:-"), ("c:10:10:sm", "c:10:10:sm"),
        ("c:10x20+3+4", "c:10x20+3+4"), ("c:8X6", "c:8:6:-"),
    ]

    @Test("every step parses, keys as pinned, and its key parses back to the same edit")
    func roundTrip() throws {
        var kinds = Set<Edit.Kind>()
        for (segment, key) in Self.samples {
            let edit = try #require(try Edit(parsing: segment), "\(segment)")
            #expect(edit.key == key, "\(segment)")
            #expect(try Edit(parsing: edit.key) == edit, "\(segment) → \(edit.key)")
            kinds.insert(edit.kind)
        }
        #expect(kinds == Set(Edit.Kind.allCases))
        #expect(try Edit(parsing: "ci:0") == nil)
    }

    @Test("every name finds its step: short name, long alias, command-line option")
    func names() {
        for kind in Edit.Kind.allCases {
            #expect(Edit.Kind(named: kind.shortName) == kind)
            #expect(Edit.Kind(named: kind.longName) == kind)
            #expect(Edit.Kind(option: kind.optionName) == kind)
            #expect(Edit.Kind(named: kind.optionName) == nil)
        }
        #expect(Edit.Kind(option: "--round-corner") == .roundCorner && Edit.Kind(named: "round_corner") == .roundCorner)
    }

    @Test("a URL segment and a command-line flag for the same step give one key and the same pixels")
    func urlAndFlagAgree() throws {
        let pairs: [(segment: String, option: String, value: String?)] = [
            ("bl:1.5", "--blur", "1.5"), ("sh", "--sharpen", nil), ("rc:4:1:ffffff", "--round-corner", "4:1:white"),
            ("ci:1", "--circle", nil), ("tn:ff8000:multiply", "--tint", "#ff8000:multiply"), ("gs", "--grayscale", nil),
            ("sp:1", "--sepia", nil), ("iv", "--invert", nil), ("br:1.3", "--brightness", "1.3"),
            ("co:0.7", "--contrast", "0.7"), ("sa:0", "--saturation", "0"), ("rot:90", "--rotate", "90"),
            ("fl:1:0", "--flip", "h"), ("c:10:8", "--crop", "10x8"), ("c:10x8+2+3", "--crop", "10x8+2+3"),
        ]
        let image = Image(pixels: TransformSamples.random(width: 24, height: 18, seed: 24, alpha: true))
        var kinds = Set<Edit.Kind>()
        for (segment, option, value) in pairs {
            let url = try #require(try Edit(parsing: segment))
            let flag = try #require(try Edit(option: option, value: value))
            #expect(url == flag && url.key == flag.key, "\(segment) vs \(option) \(value ?? "")")
            #expect(url.transformer().key == flag.transformer().key)
            #expect(try url.transformer().transform(image).pixels == flag.transformer().transform(image).pixels, "\(segment)")
            kinds.insert(url.kind)
        }
        #expect(kinds == Set(Edit.Kind.allCases))
    }

    @Test("the transformers are the library's, as the command line and the service built them before")
    func transformers() throws {
        let expected: [(String, any ImageTransforming)] = [
            ("bl:2", GaussianBlurTransformer(sigma: 2)), ("sh", SharpenTransformer()),
            ("rc:4:1:white", RoundCornerTransformer(radius: 4, borderWidth: 1, borderColor: .white)),
            ("ci", RoundCornerTransformer.circle()), ("tn:f80:overlay", TintTransformer(color: RGBA8(r: 255, g: 136, b: 0), blendMode: .overlay)),
            ("gs", ColorMatrixTransformer.grayscale()), ("sp:0.5", ColorMatrixTransformer.sepia(0.5)),
            ("br:2", ColorMatrixTransformer.brightness(2)), ("co:2", ColorMatrixTransformer.contrast(2)),
            ("sa:2", ColorMatrixTransformer.saturation(2)), ("iv", ColorMatrixTransformer.invert()),
            ("rot:-90", RotateTransformer(degrees: -90)), ("fl:hv", FlipTransformer(horizontal: true, vertical: true)),
            ("c:10x20+1+2", CropTransformer(rect: PixelRect(x: 1, y: 2, width: 10, height: 20))),
            ("c:10:20:north", GravityCropTransformer(size: PixelSize(width: 10, height: 20), anchor: .gravity(.north))),
        ]
        for (segment, transformer) in expected {
            #expect(try Edit(parsing: segment)?.transformer().key == transformer.key, "\(segment)")
        }
        // A side of 0 keeps that side whole.
        let image = Image(pixels: TransformSamples.numbered(width: 30, height: 20))
        let whole = try #require(try Edit(parsing: "c:0:10:north")).transformer().transform(image)
        #expect(whole.pixelSize == PixelSize(width: 30, height: 10))
    }

    @Test("bad arguments are invalidProcessingOptions errors naming the option as written")
    func badArguments() {
        let cases: [(segment: String, name: String)] = [
            ("bl", "bl"), ("blur:3000", "blur"), ("bl:-1", "bl"), ("bl:x", "bl"), ("bl:2:3", "bl"), ("sh:0", "sh"),
            ("rc:-3", "rc"), ("rc:5:2:nocolour", "rc"), ("tn", "tn"), ("tn:red:dodge", "tn"), ("tn:255:0", "tn"),
            ("gs:2", "gs"), ("br:11", "br"), ("rot:nan", "rot"), ("rot:3601", "rot"), ("fl:x", "fl"), ("fl", "fl"),
            ("c:0:0", "c"), ("c:0x5", "c"), ("c:5x5+1", "c"), ("c:5:5:up", "c"), ("ci:1:x", "ci"), ("ci:0:5", "ci"),
        ]
        for (segment, name) in cases {
            do {
                _ = try Edit(parsing: segment)
                Issue.record("\(segment) parsed")
            } catch let error as WebImageError {
                #expect(error.code == .invalidProcessingOptions, "\(segment)")
                #expect(error.message.hasPrefix("option '\(name)'"), "\(segment): \(error.message)")
            } catch {
                Issue.record("\(segment): \(error)")
            }
        }
        #expect(throws: WebImageError.self) { try Edit(parsing: "zz:1") }
        #expect(throws: WebImageError.self) { try Edit(option: "--round-corner", value: "-3") }
        #expect(throws: WebImageError.self) { try Edit(option: "--bl", value: "2") }
    }
}
