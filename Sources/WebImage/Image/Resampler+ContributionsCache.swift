extension Resampler.Contributions {
    /// What a weight table is computed from; `extent` by its bits, so equal doubles share a table.
    struct Key: Hashable, Sendable {
        var input: Int
        var output: Int
        var extent: UInt64
        var filter: Resampler.Filter
    }

    /// Recently computed tables. A service resizes sources of a few common sizes to a few box
    /// sizes, and a table (two `sin` calls a tap for Lanczos) cost about 1 % of a cold 256 px
    /// thumbnail of a 10 MP photo; the tables of small results are a few KB.
    static let recent = CostLRU<Key, Resampler.Contributions>(costLimit: 4 << 20, countLimit: 256, entryCostLimit: 256 << 10)

    /// The table for resampling `input` samples to `output` over `extent`: from ``recent`` when
    /// it was computed lately, else computed (and kept).
    static func cached(input: Int, output: Int, extent: Double, filter: Resampler.Filter) -> Self {
        let key = Key(input: input, output: output, extent: extent.bitPattern, filter: filter)
        if let table = recent.value(forKey: key) { return table }
        let table = Self(input: input, output: output, extent: extent, filter: filter)
        recent.set(table, forKey: key, cost: table.weights.count * 6 + table.starts.count * 16)
        return table
    }
}
