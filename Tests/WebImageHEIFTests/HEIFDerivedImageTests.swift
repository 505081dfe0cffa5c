import Foundation
import Testing
import WebImage

@testable import WebImageHEIF

/// Grid and overlay descriptors state the canvas libheif allocates, apart from the `ispe` size
/// libheif reports: they are checked against the pixel limit before libheif runs.
@Suite struct HEIFDerivedImageTests {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(8 + payload.count) + Array(type.utf8) + payload }
    static func fullBox(_ type: String, version: UInt8, _ payload: [UInt8]) -> [UInt8] { box(type, [version, 0, 0, 0] + payload) }
    static func be16(_ value: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
    static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value) }

    /// A container whose item 1 is a `grid` (or `iovl`) stored in `idat` (construction method 1)
    /// or in the file (method 0, after the `meta` box), declaring a `width` × `height` canvas.
    static func derivedImageFile(_ type: String, width: Int, height: Int, wide: Bool = false, inIdat: Bool = true) -> Data {
        let sizes = wide ? be32(width) + be32(height) : be16(width) + be16(height)
        let descriptor: [UInt8] =
            type == "grid" ? [0, wide ? 1 : 0, 0, 0] + sizes : [0, wide ? 1 : 0] + [UInt8](repeating: 0, count: 8) + sizes
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let infe = fullBox("infe", version: 2, be16(1) + be16(0) + Array(type.utf8) + [0])
        let iinf = fullBox("iinf", version: 0, be16(1) + infe)
        let pitm = fullBox("pitm", version: 0, be16(1))
        func meta(offset: Int) -> [UInt8] {
            let iloc = fullBox(
                "iloc", version: 1,
                [0x44, 0x00] + be16(1) + be16(1) + be16(inIdat ? 1 : 0) + be16(0) + be16(1) + be32(offset) + be32(descriptor.count))
            return fullBox("meta", version: 0, pitm + iinf + iloc + (inIdat ? box("idat", descriptor) : []))
        }
        let after = ftyp.count + meta(offset: 0).count
        return Data(ftyp + meta(offset: inIdat ? 0 : after + 8) + (inIdat ? [] : box("mdat", descriptor)))
    }

    @Test(arguments: [("grid", false, true), ("grid", true, true), ("iovl", false, true), ("grid", false, false), ("iovl", true, false)])
    func aDescriptorOverTheLimitIsTooLargeBeforeLibheifRuns(type: String, wide: Bool, inIdat: Bool) throws {
        let file = Self.derivedImageFile(type, width: 19_813, height: 27_974, wide: wide, inIdat: inIdat)
        let sizes = file.withUnsafeBytes { HEIFDerivedImages.canvasSizes($0) }
        #expect(sizes == [PixelSize(width: 19_813, height: 27_974)])
        let error = try #require(throws: WebImageError.self) { try HEIFCoder().decode(file) }
        #expect(error.code == .tooLarge, "\(error)")
        #expect(error.message.contains("19813×27974"), "\(error)")
    }

    @Test func theLargest32BitSizesAreTooLargeWithoutOverflow() throws {
        let file = Self.derivedImageFile("grid", width: 0xFFFF_FFFF, height: 0xFFFF_FFFF, wide: true)
        #expect(file.withUnsafeBytes { HEIFDerivedImages.canvasSizes($0) } == [PixelSize(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF)])
        let error = try #require(throws: WebImageError.self) { try HEIFCoder().decode(file) }
        #expect(error.code == .tooLarge, "\(error)")
    }

    @Test func aDescriptorWithinTheLimitIsLeftToLibheif() throws {
        let file = Self.derivedImageFile("grid", width: 64, height: 48)
        #expect(file.withUnsafeBytes { HEIFDerivedImages.canvasSizes($0) } == [PixelSize(width: 64, height: 48)])
        // Not a whole HEIF file: libheif refuses it, but not for its size.
        let error = try #require(throws: WebImageError.self) { try HEIFCoder().decode(file) }
        #expect(error.code != .tooLarge, "\(error)")
    }

    @Test func truncatedAndForeignContainersYieldNoSizes() {
        let whole = [UInt8](Self.derivedImageFile("grid", width: 19_813, height: 27_974))
        for length in 0..<whole.count - 1 {
            let sizes = whole.prefix(length).withUnsafeBytes { HEIFDerivedImages.canvasSizes($0) }
            // A cut inside the descriptor's size fields can only read nothing, never a wrong size.
            #expect(sizes.isEmpty || sizes == [PixelSize(width: 19_813, height: 27_974)], "cut at \(length): \(sizes)")
        }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(png.withUnsafeBytes { HEIFDerivedImages.canvasSizes($0) }.isEmpty)
    }
}

/// libheif 1.15 follows item references recursively: the reference graph is checked first.
@Suite struct HEIFReferenceGraphTests {
    typealias File = HEIFDerivedImageTests

    /// The 919-byte file the `heif` fuzz target found: the primary grid (2) has an alpha grid (4)
    /// whose tile is the primary grid. libheif overflowed the stack on it (SIGSEGV).
    static let fuzzFinding: Data = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/heif/stack-overflow-grid-alpha-grid-cycle.heic")
        return (try? Data(contentsOf: url)) ?? Data()
    }()

    /// A container with only `pitm` and an `iref` of `references` (type, from, to), 16-bit IDs.
    static func file(_ references: [(String, Int, [Int])]) -> Data {
        let ftyp = File.box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let entries = references.flatMap { type, from, to in
            File.box(type, File.be16(from) + File.be16(to.count) + to.flatMap(File.be16))
        }
        let meta = File.fullBox("meta", version: 0, File.fullBox("pitm", version: 0, File.be16(1)) + File.fullBox("iref", version: 0, entries))
        return Data(ftyp + meta)
    }

    static func check(_ data: Data) throws { try data.withUnsafeBytes { try HEIFDerivedImages.checkReferenceGraph($0) } }

    @Test func theFuzzFindingIsACycleRefusedBeforeLibheif() throws {
        #expect(Self.fuzzFinding.count == 919)
        for run in [{ try HEIFCoder().decode(Self.fuzzFinding) as Any }, { try HEIFCoder().readHeader(Self.fuzzFinding) as Any }] {
            let error = try #require(throws: WebImageError.self) { _ = try run() }
            #expect(error.code == .badImageData, "\(error)")
            #expect(error.message.contains("cycle (2 → 4 → 2)"), "\(error)")
        }
    }

    @Test func cyclesOfEveryShapeAreRefused() throws {
        let cycles: [[(String, Int, [Int])]] = [
            [("dimg", 1, [1])],  // a grid of itself
            [("dimg", 1, [2]), ("dimg", 2, [3]), ("dimg", 3, [1])],
            [("dimg", 1, [2, 3]), ("auxl", 1, [3])],  // 3 is 1's alpha and 1 is 3's tile
            [("thmb", 2, [1]), ("dimg", 2, [1])],  // a thumbnail made of its master
        ]
        for references in cycles {
            let error = try #require(throws: WebImageError.self) { try Self.check(Self.file(references)) }
            #expect(error.code == .badImageData)
            #expect(error.message.contains("cycle"), "\(error)")
        }
    }

    @Test func chainsDeeperThanTheLimitAreRefusedAndOrdinaryFilesPass() throws {
        let depth = HEIFDerivedImages.maxReferenceDepth
        let chain = (1...depth + 1).map { ("dimg", $0, [$0 + 1]) }
        let error = try #require(throws: WebImageError.self) { try Self.check(Self.file(chain)) }
        #expect(error.message.contains("more than \(depth) deep"), "\(error)")
        try Self.check(Self.file(Array(chain.dropLast())))
        // A grid of four tiles with an alpha grid of four tiles, a thumbnail and Exif: fine.
        try Self.check(
            Self.file([
                ("dimg", 1, [2, 3, 4, 5]), ("dimg", 6, [7, 8, 9, 10]), ("auxl", 6, [1]), ("thmb", 11, [1]), ("cdsc", 12, [1]),
                ("dimg", 13, [2, 3, 4, 5]),  // a second grid sharing the tiles
            ]))
        // Version 1 (32-bit IDs) is read too.
        let wide = File.fullBox(
            "iref", version: 1,
            File.box("dimg", File.be32(70_000) + File.be16(1) + File.be32(70_001))
                + File.box("dimg", File.be32(70_001) + File.be16(1) + File.be32(70_000)))
        let file = Data(File.box("ftyp", Array("heic".utf8) + [0, 0, 0, 0]) + File.fullBox("meta", version: 0, wide))
        let wideError = try #require(throws: WebImageError.self) { try Self.check(file) }
        #expect(wideError.message.contains("70000 → 70001 → 70000"), "\(wideError)")
    }

    @Test func everyCutOfTheFuzzFindingEndsTyped() {
        for length in stride(from: 0, through: Self.fuzzFinding.count, by: 7) {
            let cut = Self.fuzzFinding.prefix(length)
            do { _ = try HEIFCoder().decode(cut) } catch {}
            #expect(throws: Never.self) { try? Self.check(cut) }
        }
    }
}
