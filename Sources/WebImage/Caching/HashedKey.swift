/// A string key with its hash computed once, when it is made.
///
/// Made before the caller takes its lock, it lets a locked table (``MemoryCache``, ``CostLRU``)
/// hash one integer inside the critical section instead of the whole string. Two keys are equal
/// when their strings are.
///
/// ```swift
/// let key = HashedKey("result:https://example.com/a.png|…")   // hashed here, outside the lock
/// let hit = results.value(forKey: key)
/// ```
public struct HashedKey: Hashable, Sendable, CustomStringConvertible {
    /// The key itself.
    public let string: String
    @usableFromInline let hash: Int

    /// Wraps `string`, hashing it now.
    @inlinable
    public init(_ string: String) {
        self.string = string
        hash = string.hashValue
    }

    /// Feeds the precomputed hash.
    @inlinable
    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// Equal strings (the precomputed hashes are compared first).
    @inlinable
    public static func == (lhs: HashedKey, rhs: HashedKey) -> Bool { lhs.hash == rhs.hash && lhs.string == rhs.string }

    /// The string.
    @inlinable
    public var description: String { string }
}
