/// An owned, immutable copy of encoded bytes at a stable address, for an `avifDecoder` that keeps
/// pointers into its input between calls (animations decoded on demand).
final class AVIFOwnedBytes: @unchecked Sendable {  // written once in init, only read after.
    let buffer: UnsafeRawBufferPointer

    init(_ source: UnsafeRawBufferPointer) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, source.count), alignment: 16)
        if let from = source.baseAddress, let to = copy.baseAddress { to.copyMemory(from: from, byteCount: source.count) }
        buffer = UnsafeRawBufferPointer(start: copy.baseAddress, count: source.count)
    }

    deinit { buffer.deallocate() }
}
