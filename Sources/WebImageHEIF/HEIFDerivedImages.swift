import WebImage

/// The canvas sizes that a HEIF file's derived images declare in their own descriptors, read
/// before libheif decodes anything.
///
/// A `grid` or `iovl` (overlay) item's descriptor (ISO/IEC 23008-12, 6.6.2) states the size of
/// the canvas libheif allocates for it, independently of the item's `ispe` property, which is
/// what libheif 1.15 reports as the image's size. A 919-byte file whose grid descriptor says
/// 19,813 × 27,974 behind an `ispe` of 64 × 64 made libheif allocate 2.2 GB (found by the `heif`
/// fuzz target). Every derived item is checked, the primary image's and its thumbnails' alike.
/// Structures this walk does not understand are left to libheif, which reports them.
enum HEIFDerivedImages {
    /// Throws `tooLarge` when a grid or overlay descriptor declares a canvas over `maxPixelCount`.
    static func checkPixelLimit(_ bytes: UnsafeRawBufferPointer, maxPixelCount: Int) throws {
        for size in canvasSizes(bytes) where size.pixelCount > maxPixelCount {
            throw WebImageError.tooManyPixels(width: size.width, height: size.height, limit: maxPixelCount)
        }
    }

    /// The longest chain of item references a decode may follow (a grid of tiles is 1; an `iden`
    /// over a grid with an alpha grid is 3). libheif 1.15 follows references recursively.
    static let maxReferenceDepth = 8

    /// Throws `badImageData` when the items' references form a cycle or a chain deeper than
    /// ``maxReferenceDepth``.
    ///
    /// libheif 1.15 decodes a derived item by decoding the items it refers to, and an image's
    /// alpha or depth by decoding its auxiliary item, recursively and without a guard: a 919-byte
    /// file whose grid's alpha plane was a grid of the grid itself overflowed the stack
    /// (SIGSEGV; found by the `heif` fuzz target). What one decode needs: a `dimg` reference's
    /// source needs its targets (tiles, the overlaid images), and an `auxl` or `thmb` reference's
    /// target (the master image) brings its auxiliary images and thumbnails along.
    static func checkReferenceGraph(_ bytes: UnsafeRawBufferPointer) throws {
        guard let boxes = metaChildren(bytes), let iref = boxes.child("iref") else { return }
        var needs: [Int: [Int]] = [:]
        for reference in references(bytes, in: iref) {
            switch reference.type {
            case ISOBMFFBoxReader.fourCC("dimg"): needs[reference.from, default: []] += reference.to
            case ISOBMFFBoxReader.fourCC("auxl"), ISOBMFFBoxReader.fourCC("thmb"):
                for master in reference.to { needs[master, default: []].append(reference.from) }
            default: continue
            }
        }
        // Depth-first, with the path on a stack of our own (never the call stack).
        var depth: [Int: Int] = [:]  // finished items: the longest chain below them
        for root in needs.keys.sorted() where depth[root] == nil {
            var path: [(item: Int, next: Int)] = [(root, 0)]
            var onPath: Set<Int> = [root]
            while let top = path.last {
                let children = needs[top.item] ?? []
                if top.next < children.count {
                    path[path.count - 1].next += 1
                    let child = children[top.next]
                    if onPath.contains(child) {
                        let cycle = path.drop { $0.item != child }.map { String($0.item) } + [String(child)]
                        throw WebImageError.badData("HEIF item references form a cycle (\(cycle.joined(separator: " → ")))")
                    }
                    guard depth[child] == nil else { continue }
                    guard path.count <= maxReferenceDepth else {
                        throw WebImageError.badData(
                            "HEIF item references are more than \(maxReferenceDepth) deep (from item \(root))")
                    }
                    path.append((child, 0))
                    onPath.insert(child)
                } else {
                    let below = children.map { (depth[$0] ?? 0) + 1 }.max() ?? 0
                    guard below <= maxReferenceDepth else {
                        throw WebImageError.badData(
                            "HEIF item references are more than \(maxReferenceDepth) deep (from item \(top.item))")
                    }
                    depth[top.item] = below
                    onPath.remove(top.item)
                    path.removeLast()
                }
            }
        }
    }

    /// One `iref` entry: `from` refers to each of `to` with the reference `type`.
    struct Reference {
        var type: UInt32
        var from: Int
        var to: [Int]
    }

    /// The entries of an `iref` box (version 0: 16-bit item IDs, 1: 32-bit), read one after the
    /// other as libheif 1.15 reads them: each entry's own box size is not trusted (libheif
    /// ignores it, so a file whose entry sizes lie still has its references followed; found by
    /// the `heif` fuzz target).
    static func references(_ bytes: UnsafeRawBufferPointer, in iref: Range<Int>) -> [Reference] {
        guard let version = ISOBMFFBoxReader.read(bytes, at: iref.lowerBound, bytes: 1), version <= 1 else { return [] }
        let idBytes = version == 0 ? 2 : 4
        var reader = FieldReader(bytes: bytes, position: iref.lowerBound + 4, end: iref.upperBound)
        var references: [Reference] = []
        while let size = reader.read(4), let type = reader.read(4) {
            if size == 1 { guard reader.read(8) != nil else { break } }
            guard let from = reader.read(idBytes), let count = reader.read(2) else { break }
            var to: [Int] = []
            for _ in 0..<count {
                guard let id = reader.read(idBytes) else { break }
                to.append(id)
            }
            references.append(Reference(type: UInt32(type), from: from, to: to))
        }
        return references
    }

    /// The boxes inside `meta` (a full box: its children start after the version and flags).
    private static func metaChildren(_ bytes: UnsafeRawBufferPointer) -> ISOBMFFBoxReader? {
        guard let meta = ISOBMFFBoxReader(bytes: bytes, start: 0, end: bytes.count).child("meta") else { return nil }
        return ISOBMFFBoxReader(bytes: bytes, start: meta.lowerBound + 4, end: meta.upperBound)
    }

    /// The canvas size of every grid and overlay item whose descriptor could be read.
    static func canvasSizes(_ bytes: UnsafeRawBufferPointer) -> [PixelSize] {
        guard let boxes = metaChildren(bytes) else { return [] }
        let derived = boxes.child("iinf").map { derivedItems(bytes, in: $0) } ?? [:]
        guard !derived.isEmpty, let iloc = boxes.child("iloc") else { return [] }
        let idat = boxes.child("idat")
        return locations(bytes, in: iloc).compactMap { item -> PixelSize? in
            guard let type = derived[item.id] else { return nil }
            let base: Int
            switch item.constructionMethod {
            case 0: base = 0
            case 1:
                guard let idat else { return nil }
                base = idat.lowerBound
            default: return nil
            }
            let start = base + item.offset
            guard item.offset >= 0, start >= 0, start < bytes.count else { return nil }
            return descriptorSize(UnsafeRawBufferPointer(rebasing: bytes[start..<bytes.count]), type: type)
        }
    }

    /// The output size in a `grid` (version, flags, rows − 1, columns − 1, width, height) or
    /// `iovl` (version, flags, four 16-bit fill values, width, height) descriptor; 32-bit sizes
    /// when bit 0 of the flags is set.
    private static func descriptorSize(_ data: UnsafeRawBufferPointer, type: UInt32) -> PixelSize? {
        guard data.count >= 2, data[0] == 0 else { return nil }
        let wide = data[1] & 1 != 0
        let offset = type == ISOBMFFBoxReader.fourCC("grid") ? 4 : 10
        guard let width = ISOBMFFBoxReader.read(data, at: offset, bytes: wide ? 4 : 2),
            let height = ISOBMFFBoxReader.read(data, at: offset + (wide ? 4 : 2), bytes: wide ? 4 : 2)
        else { return nil }
        return PixelSize(width: width, height: height)
    }

    /// Item IDs of type `grid` or `iovl`, from the `infe` entries (versions 2 and 3) of `iinf`.
    private static func derivedItems(_ bytes: UnsafeRawBufferPointer, in iinf: Range<Int>) -> [Int: UInt32] {
        guard let version = ISOBMFFBoxReader.read(bytes, at: iinf.lowerBound, bytes: 1) else { return [:] }
        var entries = ISOBMFFBoxReader(bytes: bytes, start: iinf.lowerBound + 4 + (version == 0 ? 2 : 4), end: iinf.upperBound)
        var items: [Int: UInt32] = [:]
        while let (type, body) = entries.next() {
            guard type == ISOBMFFBoxReader.fourCC("infe"), let infeVersion = ISOBMFFBoxReader.read(bytes, at: body.lowerBound, bytes: 1), infeVersion >= 2 else {
                continue
            }
            let idBytes = infeVersion == 2 ? 2 : 4
            let at = body.lowerBound + 4
            guard let id = ISOBMFFBoxReader.read(bytes, at: at, bytes: idBytes),
                let itemType = ISOBMFFBoxReader.read(bytes, at: at + idBytes + 2, bytes: 4).map(UInt32.init),
                at + idBytes + 6 <= body.upperBound
            else { continue }
            if itemType == ISOBMFFBoxReader.fourCC("grid") || itemType == ISOBMFFBoxReader.fourCC("iovl") { items[id] = itemType }
        }
        return items
    }

    /// Where an item's data starts: its construction method and the first extent's offset.
    struct Location {
        var id: Int
        var constructionMethod: Int
        var offset: Int
    }

    /// The `iloc` entries (versions 0 to 2), first extent only (a descriptor is a few bytes).
    private static func locations(_ bytes: UnsafeRawBufferPointer, in iloc: Range<Int>) -> [Location] {
        var reader = FieldReader(bytes: bytes, position: iloc.lowerBound, end: iloc.upperBound)
        guard let version = reader.read(1), version <= 2, reader.read(3) != nil,
            let sizes = reader.read(1), let more = reader.read(1)
        else { return [] }
        let offsetSize = sizes >> 4, lengthSize = sizes & 15, baseOffsetSize = more >> 4
        let indexSize = version == 0 ? 0 : more & 15
        guard let count = reader.read(version < 2 ? 2 : 4) else { return [] }
        var locations: [Location] = []
        for _ in 0..<min(count, 65_536) {
            guard let id = reader.read(version < 2 ? 2 : 4) else { break }
            var method = 0
            if version >= 1 {
                guard let field = reader.read(2) else { break }
                method = field & 15
            }
            guard reader.read(2) != nil, let base = reader.read(baseOffsetSize), let extents = reader.read(2) else { break }
            var first: Int?
            for _ in 0..<extents {
                guard reader.read(indexSize) != nil, let offset = reader.read(offsetSize), reader.read(lengthSize) != nil else {
                    return locations
                }
                if first == nil { first = offset }
            }
            if let first, base <= Int.max / 2, first <= Int.max / 2 {
                locations.append(Location(id: id, constructionMethod: method, offset: base + first))
            }
        }
        return locations
    }

    /// Consecutive big-endian fields.
    private struct FieldReader {
        let bytes: UnsafeRawBufferPointer
        var position: Int
        let end: Int

        mutating func read(_ count: Int) -> Int? {
            guard position + count <= end, let value = ISOBMFFBoxReader.read(bytes, at: position, bytes: count) else { return nil }
            position += count
            return value
        }
    }
}
