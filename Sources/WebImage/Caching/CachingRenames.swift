// The names of the caching API before it was split into a memory side and a data side.

/// The composite cache's former name.
@available(*, deprecated, renamed: "ImageCache")
public typealias TieredCache = ImageCache

/// The former name of ``ImageCache/Policy``.
@available(*, deprecated, renamed: "ImageCache.Policy")
public typealias TieredCachePolicy = ImageCache.Policy

/// The former name of ``ImageCache/Policies``.
@available(*, deprecated, renamed: "ImageCache.Policies")
public typealias TieredCachePolicies = ImageCache.Policies

/// Revalidation recording is part of the data side now: every ``ImageDataCaching`` tier records a
/// 304, and ``ImageCache/recordRevalidation(forKey:http:)`` forwards to each.
@available(*, deprecated, renamed: "ImageDataCaching")
public typealias CacheRevalidationRecording = ImageDataCaching

/// The single cache protocol was split: a memory tier adopts ``ImageMemoryCaching``, a data tier
/// ``ImageDataCaching``, and ``ImageCache`` composes them (where `any ImageCaching` was used).
@available(*, unavailable, renamed: "ImageCache", message: "adopt ImageMemoryCaching or ImageDataCaching; compose tiers in an ImageCache")
public typealias ImageCaching = ImageCache
