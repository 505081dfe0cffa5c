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
