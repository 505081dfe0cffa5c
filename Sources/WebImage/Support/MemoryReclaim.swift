#if canImport(Glibc)
    import Glibc
#endif

/// Gives memory back to the system after large work.
///
/// Two things keep a process's resident size at its peak after a spike: the
/// ``PixelStoragePool`` (up to its budget of unused pixel arrays, by design, for the next
/// decode) and the allocator, which keeps freed pages of its heaps (glibc returns only the top
/// of each arena). ``now()`` empties the pool and, on glibc, calls `malloc_trim(0)`, which
/// returns every free page of every arena. Measured with `webimage serve` (four 2000-pixel
/// renders of a 16 MP WebP at once; resident size 55 MB idle, 160–185 MB after the spike), three
/// seconds later: nothing done, 181 MB; glibc's mmap threshold lowered to 128 KiB, 159 MB;
/// `malloc_trim` alone, 159 MB; the pool emptied alone, 83 MB; both, 57 MB.
///
/// ``WorkLimiter`` calls it when it goes idle after work, if asked to (`webimage serve` does).
///
/// ```swift
/// MemoryReclaim.now()
/// ```
public enum MemoryReclaim {
    /// Empties the pixel storage pool and returns the allocator's free pages to the system.
    public static func now() {
        PixelStoragePool.shared.removeAll()
        trimAllocator()
    }

    /// glibc's `malloc_trim(0)`, looked up at run time (it is not part of the C library's module
    /// map, and other C libraries have no such call).
    static func trimAllocator() {
        #if canImport(Glibc)
            typealias Trim = @convention(c) (Int) -> Int32
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
                _ = unsafeBitCast(symbol, to: Trim.self)(0)
            }
        #endif
    }
}
