import Synchronization

/// An animation whose decoded frames are kept in an ``AnimatedFramePool`` (SDWebImage's
/// `SDAnimatedImage`): every animated image decoded through ``ImageCodersManager`` has one.
///
/// - ``frame(at:)`` returns the pooled frame when there is one, otherwise decodes it through the
///   base source (whose cursor makes sequential access cost one frame each) **without** storing
///   it, so reading every frame once (transcoding) stays streaming.
/// - ``loadFrame(at:)`` decodes and stores; ``AnimatedImagePlayer`` buffers frames with it.
/// - ``preloadAllFrames()`` stores every frame the budget allows; ``unloadAllFrames()`` drops them.
/// - The frames go when the animation is deallocated (with its image).
///
/// ```swift
/// let image = try ImageCodersManager.standard().decode(gifData)
/// if let animation = image.animation as? PooledAnimation {
///     let held = try animation.preloadAllFrames()      // frames now in the pool
///     print(held, "of", animation.frameCount, image.memoryCost)
/// }
/// ```
public final class PooledAnimation: AnimatedImageSource {
    private static let nextID = Atomic<UInt64>(1)

    /// The source that decodes frames on demand.
    public let base: any AnimatedImageSource
    /// Where decoded frames are kept.
    public let pool: AnimatedFramePool
    /// This animation's key in the pool.
    let id: UInt64

    /// Wraps `base`; its frames go into `pool` (the shared pool by default).
    public init(_ base: any AnimatedImageSource, pool: AnimatedFramePool = .shared) {
        self.base = base
        self.pool = pool
        id = Self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    deinit { pool.removeAll(of: id) }

    public var frameCount: Int { base.frameCount }
    public var loopCount: Int { base.loopCount }
    public var canvasSize: PixelSize { base.canvasSize }
    public func duration(at index: Int) -> Double { base.duration(at: index) }
    public func storedDuration(at index: Int) -> Double { base.storedDuration(at: index) }

    /// Bytes of this animation's frames in the pool now.
    public var heldByteCount: Int { pool.bytes(of: id) }

    /// How many of this animation's frames are in the pool now.
    public var pooledFrameCount: Int { pool.frameCount(of: id) }

    /// Whether every frame is in the pool (SDWebImage's `isAllFramesLoaded`).
    public var isAllFramesLoaded: Bool { pooledFrameCount == frameCount }

    /// The bytes of one decoded frame (every frame is a whole canvas).
    public var frameByteCount: Int { canvasSize.rgbaByteCount }

    /// Frame `index`: from the pool when held there, otherwise decoded and not stored.
    public func frame(at index: Int) throws -> AnimationFrame {
        if let pooled = pool.frame(owner: id, index: index) { return pooled }
        return try base.frame(at: index)
    }

    /// Frame `index` if the pool holds it; never decodes.
    public func pooledFrame(at index: Int) -> AnimationFrame? { pool.frame(owner: id, index: index) }

    /// Whether the pool holds frame `index` (does not count as a use).
    public func isPooled(_ index: Int) -> Bool { pool.contains(owner: id, index: index) }

    /// Frame `index` from the pool, or decoded and stored there (if it fits the budget).
    @discardableResult
    public func loadFrame(at index: Int) throws -> AnimationFrame {
        if let pooled = pool.frame(owner: id, index: index) { return pooled }
        // Evict first: the frame that makes room goes to the storage pool, where this decode finds it.
        pool.makeRoom(for: frameByteCount)
        let frame = try base.frame(at: index)
        pool.store(frame, owner: id, index: index)
        return frame
    }

    /// Decodes frames in order into the pool, as many as the budget allows beside this
    /// animation's own frames (other images' least recently used frames make room; this one's
    /// are never evicted by its own preload). Returns how many of its frames the pool holds after.
    /// Throws ``WebImageError`` when a frame fails to decode; the frames before it stay.
    @discardableResult
    public func preloadAllFrames() throws -> Int {
        for index in 0..<frameCount where !isPooled(index) {
            guard pool.canHold(cost: heldByteCount + frameByteCount) else { break }
            pool.store(try base.frame(at: index), owner: id, index: index)
        }
        return pooledFrameCount
    }

    /// Drops this animation's frames from the pool.
    public func unloadAllFrames() {
        pool.removeAll(of: id)
    }
}

extension Image {
    /// Decodes every frame of a pooled animation into its pool, as far as the budget allows
    /// (see ``PooledAnimation/preloadAllFrames()``), and returns how many frames are held.
    /// Still images and other animations hold nothing extra: 0.
    @discardableResult
    public func preloadAllFrames() throws -> Int {
        try (animation as? PooledAnimation)?.preloadAllFrames() ?? 0
    }

    /// Drops the frames a pooled animation holds in its pool.
    public func unloadAllFrames() {
        (animation as? PooledAnimation)?.unloadAllFrames()
    }

    /// This image with its animation kept in `pool`: itself when it has no animation of more
    /// than one frame or is already pooled; otherwise the same image over a ``PooledAnimation``.
    public func pooled(in pool: AnimatedFramePool = .shared) -> Image {
        guard let animation, animation.frameCount > 1, !(animation is PooledAnimation) else { return self }
        return Image(
            pixels: pixels, scale: scale, orientation: orientation, format: format,
            animation: PooledAnimation(animation, pool: pool), hasAlpha: hasAlpha,
            originalPixelSize: originalPixelSize, colorProfile: colorProfile, metadata: metadata)
    }
}
