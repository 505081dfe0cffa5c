/// Which tiers of a cache an operation reaches, or where a result came from
/// (SDWebImage's `SDImageCacheType`).
///
/// ```swift
/// let found = try await cache.contains(forKey: key, cacheType: .all)
/// if found.contains(.disk) { print("on disk") }
/// ```
public enum ImageCacheType: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// No tier: the operation does nothing; a result that came from no cache.
    case none
    /// The in-memory tier (decoded images).
    case memory
    /// The on-disk tier (encoded bytes).
    case disk
    /// Both tiers.
    case all

    /// Whether this type reaches the memory tier.
    public var includesMemory: Bool { self == .memory || self == .all }

    /// Whether this type reaches the disk tier.
    public var includesDisk: Bool { self == .disk || self == .all }

    /// Whether `other`'s tiers are all reached by this type.
    public func contains(_ other: ImageCacheType) -> Bool {
        (!other.includesMemory || includesMemory) && (!other.includesDisk || includesDisk)
    }

    /// The tiers reached by either type.
    public func union(_ other: ImageCacheType) -> ImageCacheType {
        ImageCacheType(memory: includesMemory || other.includesMemory, disk: includesDisk || other.includesDisk)
    }

    /// The tiers reached by both types.
    public func intersection(_ other: ImageCacheType) -> ImageCacheType {
        ImageCacheType(memory: includesMemory && other.includesMemory, disk: includesDisk && other.includesDisk)
    }

    /// The type reaching exactly the given tiers.
    public init(memory: Bool, disk: Bool) {
        switch (memory, disk) {
        case (false, false): self = .none
        case (true, false): self = .memory
        case (false, true): self = .disk
        case (true, true): self = .all
        }
    }

    /// The type's name: `none`, `memory`, `disk` or `all`.
    public var description: String {
        switch self {
        case .none: "none"
        case .memory: "memory"
        case .disk: "disk"
        case .all: "all"
        }
    }
}
