import Testing
import WebImage
import WebImageTesting

/// The one duration rule (10 ms or less plays as 100 ms) and the stored value through the wrappers.
@Suite("Frame duration rule")
struct FrameDurationRuleTests {
    @Test(arguments: [
        (0.0, 0.1), (0.001, 0.1), (0.01, 0.1), (1.0 / 100, 0.1), (10.0 / 1000, 0.1), (0.0101, 0.0101),
        (0.011, 0.011), (0.02, 0.02), (0.07, 0.07), (90.0, 90.0), (-1.0, 0.1), (Double.nan, 0.1),
        (Double.infinity, 0.1),
    ])
    func played(stored: Double, expected: Double) {
        #expect(FrameDurationRule.played(stored) == expected)
    }

    @Test func wrappersForwardTheStoredDuration() throws {
        let frames = (0..<3).map { AnimationFrame(pixels: ImageFixtures.movingSquare(index: $0), duration: 0.1) }
        let source = InMemoryAnimation(frames: frames, loopCount: 3, storedDurations: [0, 0.01, 0.1])
        #expect((0..<3).map { source.storedDuration(at: $0) } == [0, 0.01, 0.1])
        #expect((0..<3).map { source.duration(at: $0) } == [0.1, 0.1, 0.1])

        let mapped = MappedAnimation(source, canvasSize: source.canvasSize) { $0 }
        #expect((0..<3).map { mapped.storedDuration(at: $0) } == [0, 0.01, 0.1])
        let image = Image(pixels: frames[0].pixels, animation: source)
        let resized = try ResizeTransformer(size: PixelSize(width: 16, height: 16), mode: .aspectFill).transform(image)
        let animation = try #require(resized.animation)
        #expect((0..<3).map { animation.storedDuration(at: $0) } == [0, 0.01, 0.1])
        #expect((0..<3).map { animation.duration(at: $0) } == [0.1, 0.1, 0.1])
    }

    @Test func sourcesWithoutAContainerStoreWhatTheyPlay() {
        let frames = [0.05, 0.2].map { AnimationFrame(pixels: ImageFixtures.movingSquare(index: 0), duration: $0) }
        let source = InMemoryAnimation(frames: frames)
        #expect((0..<2).map { source.storedDuration(at: $0) } == [0.05, 0.2])
    }
}
