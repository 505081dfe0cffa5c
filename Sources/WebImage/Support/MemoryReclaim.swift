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

    /// Caps glibc's malloc arenas at `count` for a long-running process that decodes on many
    /// threads, unless the operator set `MALLOC_ARENA_MAX` (which wins). glibc gives each busy
    /// thread an arena of its own, up to 8 per core; every arena keeps freed pages that
    /// ``now()`` cannot always hand back, so a server that spiked holds memory long after.
    /// imgproxy's images ship `MALLOC_ARENA_MAX=2` for the same reason. Measured with
    /// `webimage serve` (four 2000-pixel JPEG renders of a 16 MP PNG at once, then idle):
    /// 85–116 MB resident after the spike with glibc's default arenas, 63 MB with 2 (54 MB idle).
    /// Call it at start-up, before the threads that allocate exist. Elsewhere (macOS, musl) it
    /// does nothing.
    ///
    /// ```swift
    /// MemoryReclaim.limitAllocatorArenas(to: 2)   // first thing in `serve`
    /// ```
    public static func limitAllocatorArenas(to count: Int) {
        #if canImport(Glibc)
            guard getenv("MALLOC_ARENA_MAX") == nil else { return }
            _ = GlibcExtensions.mallopt?(GlibcExtensions.arenaMaxOption, Int32(clamping: max(1, count)))
        #endif
    }

    /// glibc's `malloc_trim(0)`, looked up at run time (it is not part of the C library's module
    /// map, and other C libraries have no such call).
    static func trimAllocator() {
        #if canImport(Glibc)
            _ = GlibcExtensions.mallocTrim?(0)
        #endif
    }
}
