public import Foundation
import Synchronization

/// An animation still downloading, whose frames become playable as their bytes arrive
/// (SDWebImage's progressive animated playback over an incremental coder).
///
/// Feed it the file's bytes in order with ``append(_:)`` and end with ``finish()``. After each
/// append, the bytes so far are cut to the frames that are whole (through the decoder's
/// ``ImagePartialAnimationDecoding``, which the standard coders adopt for GIF, WebP and APNG) and
/// decoded: ``frameCount`` is the frames there are so far, and grows. An ``AnimatedImagePlayer``
/// made over it plays them in order as they come, waits on the last one until more arrive (it
/// does not loop back to the start), and plays the whole animation, in its mode and loops, once
/// ``finish()`` has run.
///
/// Each append that completes a frame decodes the container and the first frame again (not the
/// other frames, which decode on demand), so feed it chunks, not single bytes. Bytes that do not
/// hold a whole frame yet show nothing; data that is not an animation the decoder reads shows
/// nothing until ``finish()``, which throws the decoder's error. One task feeds it; any task may
/// read it.
///
/// ```swift
/// let animation = ProgressiveAnimation(decoder: coders)
/// var player: AnimatedImagePlayer?
/// for try await event in loader.load(request).events {        // request.reportsPartialData = true
///     switch event {
///     case .progress(let progress):
///         animation.replace(with: progress.partialData ?? Data())
///         if player == nil, animation.frameCount > 0 { player = AnimatedImagePlayer(animation: animation); player?.play() }
///     case .finished(let result): try animation.finish(with: result.data)
///     default: break
///     }
/// }
/// ```
public final class ProgressiveAnimation: AnimatedImageSource {
    private struct State {
        var data = Data()
        /// The decode of the whole frames so far.
        var image: Image?
        var frameCount = 0
        var isComplete = false
        var observers: [Int: @Sendable () -> Void] = [:]
        var nextObserver = 0
    }

    private let state = Mutex(State())
    private let decoder: any ImageDecoding
    private let options: ImageDecodingOptions

    /// An animation with no bytes yet, decoded by `decoder` (an ``ImageCodersManager``) with
    /// `options` (limits, alpha, size; ``ImageDecodingOptions/firstFrameOnly`` is ignored).
    public init(decoder: any ImageDecoding, options: ImageDecodingOptions = ImageDecodingOptions()) {
        self.decoder = decoder
        var options = options
        options.firstFrameOnly = false
        self.options = options
    }

    // MARK: Feeding

    /// Adds the next bytes of the file (only bytes not given before, in order) and makes the
    /// frames they complete playable.
    public func append(_ bytes: Data) {
        let data = state.withLock { state -> Data? in
            guard !state.isComplete, !bytes.isEmpty else { return nil }
            state.data.append(bytes)
            return state.data
        }
        if let data { update(with: data) }
    }

    /// Takes every byte received so far (a loader's ``ImageLoad/Progress/partialData``), which
    /// starts with the bytes given before.
    public func replace(with data: Data) {
        let changed = state.withLock { state -> Bool in
            guard !state.isComplete, data.count > state.data.count else { return false }
            state.data = data
            return true
        }
        if changed { update(with: data) }
    }

    /// The download ended with the bytes given so far: the whole animation plays from now on.
    /// Throws the decoder's error when they are not an image it reads.
    public func finish() throws {
        try finish(with: state.withLock { $0.data })
    }

    /// The download ended with `data`, the whole file.
    public func finish(with data: Data) throws {
        guard !state.withLock({ $0.isComplete }) else { return }
        let image = try decoder.decode(data, options: options)
        install(image, data: data, complete: true)
    }

    // MARK: State

    /// Whether ``finish()`` has run: every frame is in.
    public var isComplete: Bool { state.withLock { $0.isComplete } }

    /// The latest decode: the first frame as its pixels and the frames so far as its animation.
    public var image: Image? { state.withLock { $0.image } }

    /// Calls `handler` (on the feeding task) after each change of ``frameCount`` or
    /// ``isComplete``, until the returned token's ``Observation/cancel()`` or its release.
    func observe(_ handler: @escaping @Sendable () -> Void) -> Observation {
        let id = state.withLock { state -> Int in
            state.nextObserver += 1
            state.observers[state.nextObserver] = handler
            return state.nextObserver
        }
        return Observation { [weak self] in _ = self?.state.withLock { $0.observers.removeValue(forKey: id) } }
    }

    /// A registration made by ``observe(_:)``.
    final class Observation: Sendable {
        private let remove: @Sendable () -> Void
        init(_ remove: @escaping @Sendable () -> Void) { self.remove = remove }
        func cancel() { remove() }
        deinit { remove() }
    }

    private func update(with data: Data) {
        let partial = decoder as? any ImagePartialAnimationDecoding
        guard let whole = partial?.wholeFrames(in: data) ?? (partial == nil ? data : nil),
            let image = try? decoder.decode(whole, options: options)
        else { return }
        install(image, data: data, complete: false)
    }

    private func install(_ image: Image, data: Data, complete: Bool) {
        let count = image.animation?.frameCount ?? 1
        let observers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isComplete, complete || count > state.frameCount else { return [] }
            state.image = image
            state.frameCount = count
            state.isComplete = complete
            if complete { state.data = Data() }
            return Array(state.observers.values)
        }
        for observer in observers { observer() }
    }

    // MARK: AnimatedImageSource

    /// The frames playable so far.
    public var frameCount: Int { state.withLock { $0.frameCount } }
    public var loopCount: Int { image?.animation?.loopCount ?? 0 }
    public var canvasSize: PixelSize {
        guard let image else { return PixelSize(width: 0, height: 0) }
        return image.animation?.canvasSize ?? image.pixelSize
    }

    public func duration(at index: Int) -> Double {
        image?.animation?.duration(at: index) ?? FrameDurationRule.played(0)
    }

    public func storedDuration(at index: Int) -> Double { image?.animation?.storedDuration(at: index) ?? 0 }

    public func frame(at index: Int) throws -> AnimationFrame {
        guard let image else { throw WebImageError(.decodingFailed, "no frame of the animation has arrived") }
        guard let animation = image.animation else {
            guard index == 0 else { throw WebImageError(.decodingFailed, "frame \(index) has not arrived") }
            return AnimationFrame(pixels: image.pixels, duration: duration(at: 0))
        }
        return try animation.frame(at: index)
    }
}
