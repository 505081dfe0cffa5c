extension ExifStructure {
    /// Removes what `policy` does not keep: everything but IFD0's Copyright and Artist for
    /// ``MetadataPolicy/copyright``, the GPS directory for ``MetadataPolicy/keep``, everything for
    /// ``MetadataPolicy/strip``; ``MetadataPolicy/keepAll`` keeps every directory.
    public mutating func apply(_ policy: MetadataPolicy) {
        switch policy {
        case .strip:
            self = ExifStructure(bigEndian: bigEndian, ifd0: [])
        case .copyright:
            self = ExifStructure(bigEndian: bigEndian, ifd0: ifd0.filter { $0.tag == Tag.copyright || $0.tag == Tag.artist })
        case .keep:
            gps = nil
        case .keepAll:
            break
        }
    }

    /// IFD0's orientation set to `orientation`, or added when there is none and it is not `.up`.
    public mutating func setOrientation(_ orientation: ImageOrientation) {
        let entry = Entry(tag: Tag.orientation, type: 3, count: 1, value: encode16(UInt16(orientation.rawValue)))
        if let index = ifd0.firstIndex(where: { $0.tag == Tag.orientation }) {
            ifd0[index] = entry
        } else if orientation != .up {
            ifd0.append(entry)
        }
    }

    /// The dimensions the structure states (Exif PixelXDimension and PixelYDimension, IFD0
    /// ImageWidth and ImageLength), set to `size` as LONGs; none is added.
    public mutating func setPixelSize(_ size: PixelSize) {
        let width = encode32(UInt32(clamping: size.width))
        let height = encode32(UInt32(clamping: size.height))
        func set(_ tag: UInt16, _ value: [UInt8], in entries: [Entry]) -> [Entry] {
            entries.map { $0.tag == tag ? Entry(tag: tag, type: 4, count: 1, value: value) : $0 }
        }
        ifd0 = set(Tag.imageLength, height, in: set(Tag.imageWidth, width, in: ifd0))
        exif = exif.map { set(Tag.pixelYDimension, height, in: set(Tag.pixelXDimension, width, in: $0)) }
    }

    /// The first value of the entry `tag` in `entries` read as an unsigned integer (BYTE,
    /// SHORT or LONG), or nil.
    public func integer(_ tag: UInt16, in entries: [Entry]) -> Int? {
        guard let entry = entries.first(where: { $0.tag == tag }) else { return nil }
        let reader = ExifByteReader(bytes: entry.value, bigEndian: bigEndian)
        switch entry.type {
        case 1: return entry.value.first.map(Int.init)
        case 3: return reader.uint16(at: 0).map(Int.init)
        case 4: return reader.uint32(at: 0).map(Int.init)
        default: return nil
        }
    }

    /// The entry `tag`'s ASCII value in `entries`, up to its first NUL, or nil.
    public func string(_ tag: UInt16, in entries: [Entry]) -> String? {
        guard let entry = entries.first(where: { $0.tag == tag && $0.type == 2 }) else { return nil }
        return String(decoding: entry.value.prefix { $0 != 0 }, as: UTF8.self)
    }
}
