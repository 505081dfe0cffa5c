extension ExifStructure {
    /// The structure as bytes: the header, IFD0 at offset 8, then the Exif, Interoperability and
    /// GPS directories, each followed by its values, entries in ascending tag order, values on
    /// even offsets, in ``bigEndian``'s byte order. IFD0 links to no next directory.
    public func serialized() -> [UInt8] { serialized(base: 0, nextIFD: 0) }

    /// The structure as ``serialized()`` writes it, with every offset counted from `base` bytes
    /// before its header (for a structure appended to a file at `base`) and IFD0 linking to
    /// `nextIFD`.
    func serialized(base: Int, nextIFD: UInt32) -> [UInt8] {
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0, 42] : [0x49, 0x49, 42, 0]
        out += encode32(UInt32(base + 8))
        let exifEntries = exif.map { $0 + (interoperability == nil ? [] : [pointerEntry(Tag.interoperabilityPointer, 0)]) }
        var ifd0Entries = ifd0
        if exif != nil { ifd0Entries.append(pointerEntry(Tag.exifPointer, 0)) }
        if gps != nil { ifd0Entries.append(pointerEntry(Tag.gpsPointer, 0)) }

        let ifd0Offset = base + 8
        let exifOffset = ifd0Offset + Self.directorySize(ifd0Entries)
        let interoperabilityOffset = exifOffset + (exifEntries.map(Self.directorySize) ?? 0)
        let gpsOffset = interoperabilityOffset + (interoperability.map(Self.directorySize) ?? 0)

        func pointing(_ entries: [Entry], _ tag: UInt16, to offset: Int) -> [Entry] {
            entries.map { $0.tag == tag ? pointerEntry(tag, offset) : $0 }
        }
        ifd0Entries = pointing(pointing(ifd0Entries, Tag.exifPointer, to: exifOffset), Tag.gpsPointer, to: gpsOffset)
        writeDirectory(ifd0Entries, at: ifd0Offset, next: nextIFD, into: &out)
        if let exifEntries {
            writeDirectory(pointing(exifEntries, Tag.interoperabilityPointer, to: interoperabilityOffset), at: exifOffset, into: &out)
        }
        if let interoperability { writeDirectory(interoperability, at: interoperabilityOffset, into: &out) }
        if let gps { writeDirectory(gps, at: gpsOffset, into: &out) }
        return out
    }

    /// Bytes a directory and its out-of-line values take.
    static func directorySize(_ entries: [Entry]) -> Int {
        2 + 12 * entries.count + 4 + entries.reduce(0) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) & ~1 : 0) }
    }

    private func writeDirectory(_ unsorted: [Entry], at offset: Int, next: UInt32 = 0, into out: inout [UInt8]) {
        let entries = unsorted.sorted { $0.tag < $1.tag }
        var valueOffset = offset + 2 + 12 * entries.count + 4
        var values: [UInt8] = []
        out += encode16(UInt16(entries.count))
        for entry in entries {
            out += encode16(entry.tag) + encode16(entry.type) + encode32(entry.count)
            if entry.value.count <= 4 {
                out += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                out += encode32(UInt32(valueOffset))
                values += entry.value
                if entry.value.count & 1 == 1 { values.append(0) }
                valueOffset += (entry.value.count + 1) & ~1
            }
        }
        out += encode32(next)
        out += values
    }

    private func pointerEntry(_ tag: UInt16, _ offset: Int) -> Entry {
        Entry(tag: tag, type: 4, count: 1, value: encode32(UInt32(offset)))
    }

    /// `value` as two bytes in the structure's byte order.
    func encode16(_ value: UInt16) -> [UInt8] {
        bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    /// `value` as four bytes in the structure's byte order.
    func encode32(_ value: UInt32) -> [UInt8] {
        let big = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        return bigEndian ? big : big.reversed()
    }
}

extension ExifStructure {
    /// The structure with its values in the other byte order when `bigEndian` differs: each
    /// value's numbers (SHORT, LONG, both halves of a RATIONAL, DOUBLE…) swapped.
    mutating func convert(toBigEndian target: Bool) {
        guard target != bigEndian else { return }
        func swapped(_ entries: [Entry]) -> [Entry] {
            entries.map { entry in
                let unit: Int =
                    switch entry.type {
                    case 3, 8: 2
                    case 4, 9, 11, 13, 5, 10: 4
                    case 12: 8
                    default: 1
                    }
                guard unit > 1 else { return entry }
                var value = entry.value
                for start in stride(from: 0, to: value.count - unit + 1, by: unit) { value[start..<start + unit].reverse() }
                return Entry(tag: entry.tag, type: entry.type, count: entry.count, value: value)
            }
        }
        self = ExifStructure(
            bigEndian: target, ifd0: swapped(ifd0), exif: exif.map(swapped), gps: gps.map(swapped),
            interoperability: interoperability.map(swapped))
    }
}
