/// An owned, immutable copy of encoded bytes at a stable address, for C decoders that keep
/// pointers into their input between calls (libwebp's demuxer and animation decoder, libavif's
/// decoder, libjxl's decoder reading frames on demand after the caller's `Data` is gone).
package final class OwnedBytes: @unchecked Sendable {  // written once in init, only read after.
    package let buffer: UnsafeRawBufferPointer

    package init(_ source: UnsafeRawBufferPointer) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, source.count), alignment: 16)
        if let from = source.baseAddress, let to = copy.baseAddress { to.copyMemory(from: from, byteCount: source.count) }
        buffer = UnsafeRawBufferPointer(start: copy.baseAddress, count: source.count)
    }

    deinit { buffer.deallocate() }
}
