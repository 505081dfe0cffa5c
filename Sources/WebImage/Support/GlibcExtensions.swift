#if canImport(Glibc)
    import Glibc

    /// glibc functions the C library's module map leaves out (GNU extensions and malloc tuning),
    /// looked up once in the running process; nil where the C library has no such function.
    enum GlibcExtensions {
        /// `malloc_trim(pad)`: returns the free pages of every arena to the system.
        static let mallocTrim = function("malloc_trim", as: (@convention(c) (Int) -> Int32).self)
        /// `mallopt(option, value)`: tunes the allocator (``arenaMaxOption``).
        static let mallopt = function("mallopt", as: (@convention(c) (Int32, Int32) -> Int32).self)
        /// `M_ARENA_MAX` in `<malloc.h>`.
        static let arenaMaxOption: Int32 = -8
        /// `M_TRIM_THRESHOLD`: free bytes at the top of the main heap before `free` returns them.
        static let trimThresholdOption: Int32 = -1
        /// `M_MMAP_THRESHOLD`: allocations this large or larger get mappings of their own.
        static let mmapThresholdOption: Int32 = -3
        /// `pthread_setname_np(thread, name)`: names a thread (15 bytes at most).
        static let setThreadName = function(
            "pthread_setname_np", as: (@convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32).self)

        private static func function<F>(_ name: String, as type: F.Type) -> F? {
            dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
        }
    }
#endif
