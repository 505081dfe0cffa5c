extension ImageOrientation {
    /// How a displayed pixel finds its stored pixel: optionally swap x and y, then mirror the stored
    /// x and/or y axis. The eight orientations are the eight combinations (the dihedral group of the
    /// square).
    struct StoredMapping: Hashable {
        var swaps: Bool
        var mirrorsX: Bool
        var mirrorsY: Bool
    }

    /// This orientation's display-to-stored mapping.
    var storedMapping: StoredMapping {
        switch self {
        case .up: StoredMapping(swaps: false, mirrorsX: false, mirrorsY: false)
        case .upMirrored: StoredMapping(swaps: false, mirrorsX: true, mirrorsY: false)
        case .down: StoredMapping(swaps: false, mirrorsX: true, mirrorsY: true)
        case .downMirrored: StoredMapping(swaps: false, mirrorsX: false, mirrorsY: true)
        case .leftMirrored: StoredMapping(swaps: true, mirrorsX: false, mirrorsY: false)
        case .right: StoredMapping(swaps: true, mirrorsX: false, mirrorsY: true)
        case .rightMirrored: StoredMapping(swaps: true, mirrorsX: true, mirrorsY: true)
        case .left: StoredMapping(swaps: true, mirrorsX: true, mirrorsY: false)
        }
    }

    /// The orientation with `mapping`.
    init(_ mapping: StoredMapping) {
        let match = Self.allCases.first { $0.storedMapping == mapping }
        self = match ?? .up  // every mapping is one of the eight
    }

    /// The mapping as a signed permutation matrix on centred coordinates (stored = M · displayed).
    private var matrix: (Int, Int, Int, Int) {
        let map = storedMapping
        let sx = map.mirrorsX ? -1 : 1
        let sy = map.mirrorsY ? -1 : 1
        return map.swaps ? (0, sx, sy, 0) : (sx, 0, 0, sy)
    }

    /// The single orientation that shows what displaying with `self`, then re-orienting the result
    /// with `next`, shows: `p.oriented(a).oriented(b) == p.oriented(a.followed(by: b))`.
    ///
    /// ```swift
    /// // A photo stored sideways (orientation 6), turned a further 90° clockwise:
    /// let once = photo.pixels.oriented(ImageOrientation.right.followed(by: .right))   // == .down
    /// ```
    public func followed(by next: ImageOrientation) -> ImageOrientation {
        let (a, b, c, d) = matrix
        let (e, f, g, h) = next.matrix
        // The output maps through `next` to display coordinates, then through `self` to storage.
        let m = (a * e + b * g, a * f + b * h, c * e + d * g, c * f + d * h)
        let swaps = m.0 == 0
        return ImageOrientation(
            StoredMapping(
                swaps: swaps, mirrorsX: (swaps ? m.1 : m.0) < 0, mirrorsY: (swaps ? m.2 : m.3) < 0))
    }

    /// The orientation that turns an upright image `quarterTurns` × 90° clockwise.
    static func clockwise(quarterTurns: Int) -> ImageOrientation {
        switch ((quarterTurns % 4) + 4) % 4 {
        case 1: .right
        case 2: .down
        case 3: .left
        default: .up
        }
    }
}
