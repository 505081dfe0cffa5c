#if canImport(Glibc)
import Glibc
#endif

/// Transparent huge pages for large fresh pixel buffers.
///
/// A fresh buffer costs a page fault per 4 KB page on its first write: for a 12-megapixel decode
/// and its output, some 18,000 faults, a third of a one-process decode's CPU. Linux's default
/// (`transparent_hugepage=madvise`) gives 2 MB pages only to memory that asks, so buffers of
/// ``minimumByteCount`` or more ask before anything touches them: one fault per 2 MB. The
/// kernel may still decline (no free huge page, THP turned off), and then nothing changes.
package enum HugePages {
    /// Buffers smaller than this (4 MiB, a 1024×1024 bitmap) are left alone: at least one whole
    /// aligned huge page must fit inside.
    package static let minimumByteCount = 4 << 20
    /// The huge page size on x86-64 and arm64 with 4 KB pages.
    package static let pageSize = 2 << 20

    /// Asks for huge pages over the 2 MB-aligned interior of `buffer`, which nothing has touched
    /// yet; does nothing on other systems or for small buffers.
    package static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard buffer.count >= minimumByteCount, let base = buffer.baseAddress else { return }
        let mask = UInt(pageSize - 1)
        let start = (UInt(bitPattern: base) + mask) & ~mask
        let end = (UInt(bitPattern: base) + UInt(buffer.count)) & ~mask
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        // Advice, not a requirement: a kernel without THP answers EINVAL and the pages stay small.
        _ = madvise(aligned, Int(end - start), MADV_HUGEPAGE)
        #endif
    }
}
