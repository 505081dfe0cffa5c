import Foundation
import Testing
import WebImage

#if canImport(Glibc)
import Glibc
#endif

/// Fresh pixel arrays of 4 MiB or more ask for transparent huge pages before their first write;
/// the kernel's own record of the advice (`VmFlags: … hg` in /proc/self/smaps) is checked.
@Suite("HugePages")
struct HugePagesTests {
    struct MappingNotFound: Error { var address: UInt }

    /// The `VmFlags` of the mapping holding `address`, from /proc/self/smaps.
    static func vmFlags(containing address: UInt) throws -> [Substring] {
        // Read to the end: /proc files report a size of 0.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, fields.first == "VmFlags:" {
                return Array(fields.dropFirst())
            }
        }
        throw MappingNotFound(address: address)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/smaps")))
    func aLargeFreshArrayFromThePoolAsksForHugePages() throws {
        let large = PixelStoragePool(budget: 0).take(byteCount: 16 << 20)
        let interior = large.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) + UInt(8 << 20) }
        #expect(try Self.vmFlags(containing: interior).contains("hg"))
        withExtendedLifetime(large) {}
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/smaps")))
    func aMappingUnderFourMebibytesIsLeftAlone() throws {
        // A mapping of its own, so that no earlier advice over reused heap memory can show.
        for (size, advised) in [(3 << 20, false), (HugePages.minimumByteCount + HugePages.pageSize, true)] {
            let mapping = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
            defer { munmap(mapping, size) }
            HugePages.advise(UnsafeMutableRawBufferPointer(start: mapping, count: size))
            let middle = UInt(bitPattern: mapping) + UInt(size / 2)
            #expect(try Self.vmFlags(containing: middle).contains("hg") == advised, "\(size) bytes")
        }
    }
}
