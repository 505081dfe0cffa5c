/// IPTC-IIM records (IPTC's Information Interchange Model): a run of datasets, each
/// `1C`, record number, dataset number, a two-byte length and the value.
///
/// Read bounded: a dataset that runs past the end, or an extended (over 32 KB) length, ends the
/// run there; the datasets before it are kept.
///
/// ```swift
/// let records = try IPTCRecords(parsing: bytes)
/// let notice = records.datasets.first { $0.record == 2 && $0.dataset == 116 }   // Copyright Notice
/// ```
public struct IPTCRecords: Sendable, Hashable {
    /// One dataset.
    public struct Dataset: Sendable, Hashable {
        /// The record number (1 envelope, 2 application).
        public var record: UInt8
        /// The dataset number within the record (2:116 Copyright Notice, 2:80 By-line, …).
        public var dataset: UInt8
        /// The value's bytes.
        public var value: [UInt8]

        /// A dataset of these parts.
        public init(record: UInt8, dataset: UInt8, value: [UInt8]) {
            self.record = record
            self.dataset = dataset
            self.value = value
        }
    }

    /// The datasets, in order.
    public var datasets: [Dataset]

    /// What ``MetadataPolicy/copyright`` keeps: the record version and coded character set, and
    /// 2:80 By-line, 2:110 Credit, 2:116 Copyright Notice.
    static let copyrightDatasets: Set<[UInt8]> = [[1, 90], [2, 0], [2, 80], [2, 110], [2, 116]]

    /// Records of these datasets.
    public init(datasets: [Dataset]) { self.datasets = datasets }

    /// The datasets in `bytes`. Throws ``WebImageError/Code/badImageData`` when the first byte is
    /// not a dataset's tag marker.
    public init(parsing bytes: [UInt8]) throws {
        guard bytes.first == 0x1C else { throw WebImageError.badData("IPTC: no dataset marker") }
        var datasets: [Dataset] = []
        var i = 0
        while i + 5 <= bytes.count, bytes[i] == 0x1C {
            let length = Int(bytes[i + 3]) << 8 | Int(bytes[i + 4])
            guard length & 0x8000 == 0, i + 5 + length <= bytes.count else { break }
            datasets.append(Dataset(record: bytes[i + 1], dataset: bytes[i + 2], value: Array(bytes[(i + 5)..<(i + 5 + length)])))
            i += 5 + length
        }
        self.datasets = datasets
    }

    /// Whether there is no dataset beyond the record version and character set.
    public var isEmpty: Bool {
        !datasets.contains { !($0.record == 2 && $0.dataset == 0) && !($0.record == 1 && $0.dataset == 90) }
    }

    /// The records `policy` keeps: none for ``MetadataPolicy/strip``, the copyright datasets for
    /// ``MetadataPolicy/copyright``, all of them otherwise (IIM has no coordinates).
    public func applying(_ policy: MetadataPolicy) -> IPTCRecords {
        switch policy {
        case .strip: IPTCRecords(datasets: [])
        case .copyright: IPTCRecords(datasets: datasets.filter { Self.copyrightDatasets.contains([$0.record, $0.dataset]) })
        case .keep, .keepAll: self
        }
    }

    /// The datasets as bytes.
    public func serialized() -> [UInt8] {
        datasets.filter { $0.value.count < 0x8000 }.flatMap { [0x1C, $0.record, $0.dataset, UInt8($0.value.count >> 8), UInt8($0.value.count & 0xFF)] + $0.value }
    }
}
