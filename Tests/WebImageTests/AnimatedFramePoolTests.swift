import Synchronization
import Testing
import WebImage
import WebImageTesting

/// An animation over generated moving-square frames that counts its decodes and can run a hook
/// on each one (to move a manual clock, simulating a slow decoder).
final class CountingAnimation: AnimatedImageSource {
    let frames: [AnimationFrame]
    let loopCount: Int
    private let decodes = Mutex<[Int]>([])
    private let onDecode: @Sendable (Int) -> Void

    init(frames count: Int, duration: Double = 0.1, loopCount: Int = 0, seed: Int = 0, onDecode: @escaping @Sendable (Int) -> Void = { _ in }) {
        frames = (0..<count).map {
            AnimationFrame(pixels: ImageFixtures.movingSquare(index: $0 + seed), duration: duration)
        }
        self.loopCount = loopCount
        self.onDecode = onDecode
    }

    var frameCount: Int { frames.count }
    var canvasSize: PixelSize { frames[0].pixels.size }
    func duration(at index: Int) -> Double { frames[index].duration }
    func frame(at index: Int) throws -> AnimationFrame {
        guard frames.indices.contains(index) else { throw WebImageError(.decodingFailed, "no frame \(index)") }
        decodes.withLock { $0.append(index) }
        onDecode(index)
        return frames[index]
    }

    /// Every decode so far, in order.
    var decoded: [Int] { decodes.withLock { $0 } }
    /// 32×32 RGBA.
    static let frameBytes = 32 * 32 * 4
}

@Suite("AnimatedFramePool and PooledAnimation")
struct AnimatedFramePoolTests {
    let frameBytes = CountingAnimation.frameBytes

    @Test func leastRecentlyUsedFramesGoFirstAcrossAnimations() throws {
        let pool = AnimatedFramePool(budget: 3 * frameBytes)
        let a = PooledAnimation(CountingAnimation(frames: 4), pool: pool)
        let b = PooledAnimation(CountingAnimation(frames: 4, seed: 1), pool: pool)
        try a.loadFrame(at: 0)
        try b.loadFrame(at: 0)
        try a.loadFrame(at: 1)
        #expect(a.pooledFrame(at: 0) != nil)  // a0 is now the most recently used; b0 the least
        try b.loadFrame(at: 1)
        #expect(!b.isPooled(0) && a.isPooled(0) && a.isPooled(1) && b.isPooled(1))
        let stats = pool.statistics
        #expect(stats.bytesHeld == 3 * frameBytes && stats.frameCount == 3 && stats.evictionCount == 1)
        #expect(stats.peakBytesHeld == 3 * frameBytes)
    }

    @Test func neverHoldsMoreThanTheBudgetAndRefusesAFrameLargerThanIt() throws {
        let pool = AnimatedFramePool(budget: frameBytes * 5 / 2)  // two and a half frames
        let animation = PooledAnimation(CountingAnimation(frames: 6), pool: pool)
        for index in 0..<6 {
            try animation.loadFrame(at: index)
            #expect(pool.statistics.bytesHeld <= pool.budget)
        }
        #expect(animation.pooledFrameCount == 2 && pool.statistics.peakBytesHeld == 2 * frameBytes)

        pool.budget = frameBytes - 1
        #expect(pool.statistics.bytesHeld == 0)  // lowering the budget evicts at once
        try animation.loadFrame(at: 0)
        #expect(pool.statistics.frameCount == 0 && pool.statistics.rejectedCount == 1)

        let none = AnimatedFramePool(budget: 0)
        let direct = PooledAnimation(CountingAnimation(frames: 2), pool: none)
        #expect(try direct.loadFrame(at: 1).pixels == ImageFixtures.movingSquare(index: 1))
        #expect(none.statistics.bytesHeld == 0)
    }

    @Test func plainAccessReadsThePoolButNeverFillsIt() throws {
        let pool = AnimatedFramePool(budget: 1 << 20)
        let source = CountingAnimation(frames: 4)
        let animation = PooledAnimation(source, pool: pool)
        for index in 0..<4 { #expect(try animation.frame(at: index).pixels == source.frames[index].pixels) }
        #expect(pool.statistics.frameCount == 0 && source.decoded == [0, 1, 2, 3])
        try animation.loadFrame(at: 2)
        _ = try animation.frame(at: 2)  // served by the pool
        #expect(source.decoded == [0, 1, 2, 3, 2])
    }

    @Test func preloadFillsWithinTheBudgetAndUnloadEmpties() throws {
        let pool = AnimatedFramePool(budget: 10 * frameBytes)
        let source = CountingAnimation(frames: 6)
        let image = Image(pixels: source.frames[0].pixels, animation: source).pooled(in: pool)
        let animation = try #require(image.animation as? PooledAnimation)
        #expect(image.memoryCost == frameBytes)  // the poster only: nothing held yet
        #expect(try image.preloadAllFrames() == 6)
        #expect(animation.isAllFramesLoaded && pool.statistics.bytesHeld == 6 * frameBytes)
        #expect(image.memoryCost == 7 * frameBytes)  // poster + six pooled frames
        _ = try (0..<6).map { try animation.frame(at: $0) }
        #expect(source.decoded.count == 6)  // every frame came from the pool
        image.unloadAllFrames()
        #expect(pool.statistics.bytesHeld == 0 && image.memoryCost == frameBytes)

        // A smaller budget: as many frames as fit, and the other images' frames make room.
        let other = PooledAnimation(CountingAnimation(frames: 2, seed: 3), pool: pool)
        try other.preloadAllFrames()
        pool.budget = 4 * frameBytes
        #expect(try animation.preloadAllFrames() == 4)
        #expect(animation.pooledFrameCount == 4 && other.pooledFrameCount == 0)
        #expect(pool.statistics.bytesHeld <= pool.budget)
    }

    @Test func framesAreReleasedWithTheImage() throws {
        let pool = AnimatedFramePool(budget: 1 << 20)
        var image: Image? = Image(pixels: ImageFixtures.movingSquare(index: 0), animation: CountingAnimation(frames: 3)).pooled(in: pool)
        #expect(try image?.preloadAllFrames() == 3)
        #expect(pool.statistics.frameCount == 3)
        image = nil
        #expect(pool.statistics.frameCount == 0 && pool.statistics.bytesHeld == 0)
    }

    @Test func aPooledAnimationForwardsItsSourcesMetadata() {
        let frames = (0..<3).map { AnimationFrame(pixels: ImageFixtures.movingSquare(index: $0), duration: 0.1) }
        let base = InMemoryAnimation(frames: frames, loopCount: 4, storedDurations: [0, 0.1, 0.01])
        let pooled = PooledAnimation(base, pool: AnimatedFramePool(budget: 0))
        #expect(pooled.frameCount == 3 && pooled.loopCount == 4 && pooled.canvasSize == PixelSize(width: 32, height: 32))
        #expect((0..<3).map(pooled.storedDuration(at:)) == [0, 0.1, 0.01])
        #expect((0..<3).map(pooled.duration(at:)) == [0.1, 0.1, 0.1])
    }

    @Test func memoryCostCountsWhatIsHeld() {
        let still = Image(pixels: ImageFixtures.gradient(width: 10, height: 10))
        #expect(still.memoryCost == 400)
        let lazy = Image(pixels: ImageFixtures.movingSquare(index: 0), animation: CountingAnimation(frames: 5))
        #expect(lazy.memoryCost == frameBytes)  // decodes on demand: holds nothing beside the poster
        #expect(ImageFixtures.animation(frames: 5).memoryCost == 6 * frameBytes)  // in memory: poster + 5
        #expect(Image(pixels: still.pixels).pooled().animation == nil)  // stills stay plain
    }
}
