import Foundation
import Testing
import WebImageCodecs
import WebImageTesting

/// Decoders write into storage from `PixelStoragePool.shared`, which holds bytes of earlier
/// images: each decoder must write every byte. The pool is seeded with arrays of the exact size,
/// filled with 0xAB, right before the decode; the result must equal a decode into fresh memory and
/// (for still images) sit in one of those arrays.
@Suite("Decoding into pooled storage", .serialized)
struct PooledStorageDecodeTests {
    static func address(_ bytes: [UInt8]) -> UInt {
        bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// Puts `count` arrays of `byteCount` bytes of 0xAB into the shared pool; returns where they are.
    static func seedDirty(byteCount: Int, count: Int = 2) -> Set<UInt> {
        var addresses: Set<UInt> = []
        for _ in 0..<count {
            let array = [UInt8](repeating: 0xAB, count: byteCount)
            addresses.insert(address(array))
            PixelStoragePool.shared.recycle(array)
        }
        return addresses
    }

    /// An odd size no other test decodes (so no other test takes the seeded arrays).
    static let size = PixelSize(width: 333, height: 217)

    static func stills() throws -> [(String, Data)] {
        let coders = ImageCodersManager.standard()
        let opaque = Image(pixels: ImageFixtures.gradient(width: size.width, height: size.height))
        let translucent = Image(pixels: ImageFixtures.translucentGradient(width: size.width, height: size.height))
        return [
            ("jpeg", try coders.encode(opaque, as: .jpeg, options: ImageEncodingOptions(quality: 0.9))),
            ("png", try coders.encode(translucent, as: .png, options: ImageEncodingOptions())),
            ("png-adam7", try coders.encode(translucent, as: .png, options: ImageEncodingOptions(progressive: true))),
            ("webp-lossless", try coders.encode(translucent, as: .webp, options: ImageEncodingOptions(lossless: true))),
            ("webp-lossy", try coders.encode(translucent, as: .webp, options: ImageEncodingOptions(quality: 0.8))),
        ]
    }

    @Test("A still decode into dirty pooled storage equals one into fresh memory", arguments: 0..<5)
    func stillDecode(case index: Int) throws {
        let (name, data) = try Self.stills()[index]
        let coders = ImageCodersManager.standard()
        let fresh = try coders.decode(data)
        let seeded = Self.seedDirty(byteCount: Self.size.rgbaByteCount)
        let pooled = try coders.decode(data)
        #expect(seeded.contains(Self.address(pooled.pixels.bytes)), "\(name): the decode did not use the pool")
        #expect(pooled.pixels == fresh.pixels, "\(name)")
        PixelStoragePool.shared.removeAll()
    }

    @Test func aJPEGThumbnailIsTheSameWithWarmStorage() throws {
        let data = try ImageCodersManager.standard().encode(
            Image(pixels: ImageFixtures.gradient(width: 1203, height: 801)), as: .jpeg, options: ImageEncodingOptions())
        var options = ImageDecodingOptions()
        options.thumbnailPixelSize = PixelSize(width: 256, height: 256)  // DCT 2/8: 301×201
        let first = try ImageCodersManager.standard().decode(data, options: options)
        let before = PixelStoragePool.shared.statistics.reuseCount
        let second = try ImageCodersManager.standard().decode(data, options: options)
        #expect(PixelStoragePool.shared.statistics.reuseCount > before)
        #expect(second.pixels == first.pixels)
    }

    /// 160×160 frames (100 KB, above the pool's minimum), lossless in every format.
    static func frames() -> [PixelBuffer] {
        (0..<5).map { ImageFixtures.movingSquare(index: $0 * 7, width: 160, height: 160, square: 40) }
    }

    @Test("Animation frames decoded with dirty pooled storage are exact", arguments: [ImageFormat.gif, .apng, .webp])
    func animationFrames(format: ImageFormat) throws {
        let frames = Self.frames()
        let animation = InMemoryAnimation(frames: frames.map { AnimationFrame(pixels: $0, duration: 0.1) }, loopCount: 0)
        let data = try ImageCodersManager.standard().encode(
            Image(pixels: frames[0], animation: animation), as: format, options: ImageEncodingOptions(lossless: true))
        let coders = ImageCodersManager(coders: ImageCodersManager.standard().coders, framePool: AnimatedFramePool(budget: 0))
        let image = try coders.decode(data)
        let decoded = try #require(image.animation)
        let before = PixelStoragePool.shared.statistics.reuseCount
        for index in frames.indices {
            _ = Self.seedDirty(byteCount: 160 * 160 * 4, count: 1)
            #expect(try decoded.frame(at: index).pixels == frames[index], "\(format) frame \(index)")
        }
        #expect(PixelStoragePool.shared.statistics.reuseCount > before, "\(format): frames did not use the pool")
        PixelStoragePool.shared.removeAll()
    }
}
