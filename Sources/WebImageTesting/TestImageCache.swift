public import Foundation
import Synchronization
public import WebImage

/// A test double for both sides of caching: a dictionary of images (``ImageMemoryCaching``) and a
/// dictionary of bytes and metadata (``ImageDataCaching``) behind one lock, with a log of the
/// operations it received.
///
/// It has no limits and never fails unless told to: set ``failure`` to make every async (data)
/// operation throw it. Put it where a tier goes: `ImageCache(data: [double])` stands in for a
/// disk, `ImageCache(memory: [double])` for a memory cache, both for a cache of either side.
///
/// ```swift
/// let double = TestImageCache()
/// let cache = ImageCache(memory: [MemoryCache()], data: [double])
/// _ = try await cache.query(forKey: "k", cacheType: .all)
/// #expect(double.operations == ["entry k"])
/// ```
public final class TestImageCache: ImageMemoryCaching, ImageDataCaching {
    private struct DataEntry {
        var data: Data
        var metadata: CacheEntryMetadata
    }

    private struct State {
        var images: [String: (image: Image, cost: Int)] = [:]
        var entries: [String: DataEntry] = [:]
        var operations: [String] = []
        var failure: WebImageError?
    }

    private let state = Mutex(State())

    /// Creates an empty double.
    public init() {}

    /// Every operation received, as `"<requirement> <key>"` (`"image k"`, `"setData k"`,
    /// `"removeAllImages"`, …), oldest first. Reads of ``count`` and ``totalCost`` are not logged.
    public var operations: [String] { state.withLock { $0.operations } }

    /// When set, every data operation throws this error.
    public var failure: WebImageError? {
        get { state.withLock { $0.failure } }
        set { state.withLock { $0.failure = newValue } }
    }

    // MARK: Memory side

    /// The image in the image dictionary.
    public func image(forKey key: String) -> Image? {
        state.withLock { state in
            state.operations.append("image \(key)")
            return state.images[key]?.image
        }
    }

    /// Puts `image` in the image dictionary (not under the empty key).
    public func setImage(_ image: Image, forKey key: String, cost: Int?) {
        state.withLock { state in
            state.operations.append("setImage \(key)")
            if !key.isEmpty { state.images[key] = (image, cost ?? image.memoryCost) }
        }
    }

    /// Removes `key` from the image dictionary.
    public func removeImage(forKey key: String) {
        state.withLock { state in
            state.operations.append("removeImage \(key)")
            state.images[key] = nil
        }
    }

    /// Empties the image dictionary.
    public func removeAllImages() {
        state.withLock { state in
            state.operations.append("removeAllImages")
            state.images = [:]
        }
    }

    /// Whether the image dictionary holds `key`.
    public func containsImage(forKey key: String) -> Bool {
        state.withLock { state in
            state.operations.append("containsImage \(key)")
            return state.images[key] != nil
        }
    }

    /// Images in the image dictionary.
    public var count: Int { state.withLock { $0.images.count } }

    /// Their summed cost.
    public var totalCost: Int { state.withLock { $0.images.values.reduce(0) { $0 + $1.cost } } }

    // MARK: Data side

    /// The bytes and metadata in the data dictionary.
    public func entry(forKey key: String) async throws -> (data: Data, metadata: CacheEntryMetadata)? {
        try state.withLock { state in
            try record("entry \(key)", in: &state)
            return state.entries[key].map { ($0.data, $0.metadata) }
        }
    }

    /// Stores bytes with metadata, setting its bookkeeping fields as a real cache does.
    public func setData(_ data: Data, forKey key: String, metadata: CacheEntryMetadata?) async throws {
        try CacheKeys.validate(key)
        try state.withLock { state in
            try record("setData \(key)", in: &state)
            var metadata = metadata ?? CacheEntryMetadata()
            let now = Date()
            metadata.byteSize = data.count
            metadata.createdAt = state.entries[key]?.metadata.createdAt ?? now
            metadata.modifiedAt = now
            metadata.lastAccessAt = now
            state.entries[key] = DataEntry(data: data, metadata: metadata)
        }
    }

    /// Removes `key` from the data dictionary.
    public func removeData(forKey key: String) async throws {
        try state.withLock { state in
            try record("removeData \(key)", in: &state)
            state.entries[key] = nil
        }
    }

    /// Empties the data dictionary.
    public func removeAllData() async throws {
        try state.withLock { state in
            try record("removeAllData", in: &state)
            state.entries = [:]
        }
    }

    /// Whether the data dictionary holds `key`.
    public func containsData(forKey key: String) async throws -> Bool {
        try state.withLock { state in
            try record("containsData \(key)", in: &state)
            return state.entries[key] != nil
        }
    }

    /// Entries in the data dictionary.
    public func count() async throws -> Int {
        try state.withLock { state in
            try record("count", in: &state)
            return state.entries.count
        }
    }

    /// Their summed bytes.
    public func totalBytes() async throws -> Int {
        try state.withLock { state in
            try record("totalBytes", in: &state)
            return state.entries.values.reduce(0) { $0 + $1.data.count }
        }
    }

    /// Merges the 304's headers into `key`'s metadata and restarts its modification date.
    @discardableResult
    public func recordRevalidation(forKey key: String, http: HTTPCacheMetadata) async throws -> Bool {
        try state.withLock { state in
            try record("recordRevalidation \(key)", in: &state)
            guard var entry = state.entries[key] else { return false }
            entry.metadata.http = entry.metadata.http.updated(with: http)
            entry.metadata.modifiedAt = Date()
            state.entries[key] = entry
            return true
        }
    }

    private func record(_ operation: String, in state: inout State) throws {
        state.operations.append(operation)
        if let failure = state.failure { throw failure }
    }
}
