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

    /// Lets glibc keep up to `bytes` of freed heap for the next job instead of handing it back
    /// at every `free`, unless the operator tuned the allocator (`MALLOC_TRIM_THRESHOLD_`,
    /// `MALLOC_MMAP_THRESHOLD_` or `MALLOC_TOP_PAD_` win). By default glibc returns the top of
    /// its main heap once more than twice its (adaptive, 32 MB at most) mmap threshold is free,
    /// so a server decoding two large JPEGs at a time gave back and refaulted tens of MB per
    /// request (decoded pixels, libjpeg's coefficient arrays), zeroed on fresh pages. A `perf
    /// record` of `webimage serve` making cold 256 px thumbnails of 10 MP progressive photos put
    /// 15 % of its CPU in that `memset` and its page faults and 2 % in `brk` giving the pages back;
    /// with freed memory kept, 6 % and none (docs/service.md, "Speed beside thumbor"). Most of
    /// those arrays are now DC-only and small, but 4:2:0 chroma and the pixels still come and go.
    /// Allocations of `bytes / 4` (at most 32 MB) or more are still mapped on their own and
    /// returned on `free`.
    /// What is kept goes back when the service idles (``now()``) and after heavy jobs
    /// (``WorkLimiter``). Call it at start-up; elsewhere (macOS, musl) it does nothing.
    ///
    /// ```swift
    /// MemoryReclaim.retainFreedMemory(upTo: 256 << 20)   // `serve`
    /// ```
    public static func retainFreedMemory(upTo bytes: Int) {
        #if canImport(Glibc)
            let tuned = ["MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_"]
            guard tuned.allSatisfy({ getenv($0) == nil }), let mallopt = GlibcExtensions.mallopt else { return }
            // Setting either turns glibc's adaptive mmap threshold off, so both are set; glibc
            // refuses an mmap threshold over half its 64 MB arena heaps.
            let kept = Int32(clamping: max(0, bytes))
            _ = mallopt(GlibcExtensions.mmapThresholdOption, min(kept / 4, 32 << 20))
            _ = mallopt(GlibcExtensions.trimThresholdOption, kept)
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
