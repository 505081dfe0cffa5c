/// The image side of caching: decoded images in memory, looked up without suspending
/// (Nuke's `ImageCaching`, SDWebImage's `SDMemoryCache`).
///
/// Every requirement is synchronous, so a memory hit costs a lock and a hash lookup and never an
/// `await`. ``MemoryCache`` adopts it; an ``ImageCache`` composes any number of memory tiers with
/// data tiers (``ImageDataCaching``). Implementations are thread-safe and keep nothing under the
/// empty key. `ImageMemoryCachingConformance` in `WebImageTesting` checks an implementation.
///
/// ```swift
/// let memory: any ImageMemoryCaching = MemoryCache()
/// memory.setImage(image, forKey: key, cost: nil)
/// if let hit = memory.image(forKey: key) { show(hit) }
/// ```
public protocol ImageMemoryCaching: Sendable {
    /// The image held for `key`, marking it recently used; `nil` when absent.
    func image(forKey key: String) -> Image?

    /// Keeps `image` for `key`, charging `cost` (`nil`: ``Image/memoryCost``) against the cache's
    /// limits. An image under the empty key is not kept.
    func setImage(_ image: Image, forKey key: String, cost: Int?)

    /// Drops `key`'s image.
    func removeImage(forKey key: String)

    /// Drops every image.
    func removeAllImages()

    /// Whether an image is held for `key`, without changing its recency.
    func containsImage(forKey key: String) -> Bool

    /// How many images are held.
    var count: Int { get }

    /// The summed cost of the images held.
    var totalCost: Int { get }
}
