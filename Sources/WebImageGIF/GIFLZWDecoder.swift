/// What one image's LZW decompression produced.
struct GIFLZWOutcome: Equatable {
    /// How many indices were written, from the start of the output (all of them on success).
    var produced: Int
    /// Whether the image is whole: every index written and the data sub-blocks closed by their
    /// terminator. When false, ``failure`` says why.
    var isComplete: Bool
    /// Why decompression stopped early, or why the image's sub-blocks are not closed.
    var failure: String?
}

/// GIF's variable-length-code LZW decompression, index for index what giflib 5.2 produces,
/// including on damaged data.
///
/// Codes are read least significant bit first from the image's data sub-blocks (gathered into one
/// contiguous buffer first, so each code is one 8-byte load). A code's string is copied from where
/// it was last written in the output (a new code is the previous code's string plus the next
/// index, which is exactly the output that followed it), so decoding costs a copy per code, not a
/// table walk per index.
///
/// giflib's behaviour on broken streams is kept exactly, because frames must be byte-identical to
/// the reference decoder:
/// - a code past the next free table entry outputs the previous code's string followed by index 2
///   (giflib's "no such code" marker, 4098, truncated to a byte), and the table entries made from
///   then on may refer to codes not yet defined. Until the next clear code such streams are decoded
///   by ``slowCode(_:)``, which follows giflib's prefix/suffix table walk step by step;
/// - the code width stops growing at 12 bits; the table's last entry (4095) is made by the first
///   code read once the width is 12 bits and 4,094 entries are in, and after that nothing is added
///   until a clear code;
/// - the end-of-information code before the image is complete, a first code (after a clear) that
///   is not an index, a string of 4,095 or more indices and data running out are errors; the
///   indices written before the error are kept (incremental decoding shows the whole rows).
///
/// Not thread-safe: one decoder belongs to one ``GIFFrameDecoder``.
final class GIFLZWDecoder {
    /// giflib's table size (12-bit codes) and its "no such code" marker.
    static let maxCode = 4095
    static let noCode = 4098

    /// Prefix code and last index of each table entry (giflib's layout, for ``slowCode(_:)``).
    private let prefix: UnsafeMutablePointer<UInt16>
    private let suffix: UnsafeMutablePointer<UInt8>
    /// Where each entry's string was last written in the output, and its length.
    private let offset: UnsafeMutablePointer<Int>
    private let length: UnsafeMutablePointer<Int>
    /// giflib's pixel stack, for ``slowCode(_:)``.
    private let stack: UnsafeMutablePointer<UInt8>
    /// The gathered data sub-blocks, plus 8 zero bytes so that the last code's load stays inside.
    private var data: UnsafeMutableRawBufferPointer

    /// giflib's decoding state (its names), kept in locals while an image is decoded.
    private struct State {
        var clearCode: Int
        var eofCode: Int
        var minimumBits: Int
        var runningCode = 0
        var runningBits = 0
        var maxCode1 = 0
        var lastCode = GIFLZWDecoder.noCode
        /// Whether entries since the last clear may refer to undefined codes (``slowCode`` decodes).
        var isDamaged = false
        /// The output and how much of it is written.
        let output: UnsafeMutablePointer<UInt8>
        let total: Int
        var position = 0

        /// giflib's state after a clear code (and at the start of an image).
        mutating func reset() {
            runningCode = eofCode + 1
            runningBits = minimumBits + 1
            maxCode1 = 1 << runningBits
            lastCode = GIFLZWDecoder.noCode
            isDamaged = false
        }
    }

    init() {
        prefix = .allocate(capacity: Self.maxCode + 1)
        prefix.initialize(repeating: UInt16(Self.noCode), count: Self.maxCode + 1)
        suffix = .allocate(capacity: Self.maxCode + 1)
        suffix.initialize(repeating: 0, count: Self.maxCode + 1)
        offset = .allocate(capacity: Self.maxCode + 1)
        offset.initialize(repeating: 0, count: Self.maxCode + 1)
        length = .allocate(capacity: Self.maxCode + 1)
        length.initialize(repeating: 0, count: Self.maxCode + 1)
        stack = .allocate(capacity: Self.maxCode)
        stack.initialize(repeating: 0, count: Self.maxCode)
        data = .allocate(byteCount: 4096, alignment: 8)
    }

    deinit {
        prefix.deallocate()
        suffix.deallocate()
        offset.deallocate()
        length.deallocate()
        stack.deallocate()
        data.deallocate()
    }

    /// Decompresses the data sub-blocks that start at `start` in `bytes` into `count` indices at
    /// `out`, which must have room for `count + 8` bytes (fast copies may write up to 7 bytes past
    /// the last index).
    ///
    /// `minimumCodeSize` is the byte before the sub-blocks (0–8; the caller rejects larger ones,
    /// as giflib does).
    func decode(
        _ bytes: UnsafeRawBufferPointer, subBlocksAt start: Int, minimumCodeSize: Int,
        into out: UnsafeMutablePointer<UInt8>, count: Int
    ) -> GIFLZWOutcome {
        let (available, closed) = gather(bytes, from: start)
        var state = State(
            clearCode: 1 << minimumCodeSize, eofCode: (1 << minimumCodeSize) + 1, minimumBits: minimumCodeSize,
            output: out, total: count)
        state.reset()
        if let failure = run(&state, availableBits: available * 8) {
            return GIFLZWOutcome(produced: state.position, isComplete: false, failure: failure)
        }
        // giflib reads the sub-blocks after the last index up to their terminator.
        guard closed else {
            return GIFLZWOutcome(produced: state.position, isComplete: false, failure: "GIF image data truncated")
        }
        return GIFLZWOutcome(produced: state.position, isComplete: true, failure: nil)
    }

    /// Copies the data of the sub-blocks from `start` into ``data``, up to the terminator or to the
    /// first sub-block that is not all there (giflib reads a sub-block whole or not at all).
    /// Returns the byte count and whether the terminator was reached.
    private func gather(_ bytes: UnsafeRawBufferPointer, from start: Int) -> (Int, Bool) {
        var cursor = start
        var filled = 0
        var closed = false
        while cursor < bytes.count {
            let size = Int(bytes[cursor])
            if size == 0 {
                closed = true
                break
            }
            guard size <= bytes.count - cursor - 1 else { break }
            if filled + size + 8 > data.count {
                let grown = UnsafeMutableRawBufferPointer.allocate(
                    byteCount: max(data.count * 2, filled + size + 8), alignment: 8)
                grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: data[0..<filled]))
                data.deallocate()
                data = grown
            }
            (data.baseAddress! + filled).copyMemory(from: bytes.baseAddress! + cursor + 1, byteCount: size)
            filled += size
            cursor += size + 1
        }
        (data.baseAddress! + filled).initializeMemory(as: UInt8.self, repeating: 0, count: 8)
        return (filled, closed)
    }

    /// Decodes codes until `state.total` indices are written; the failure message when the stream
    /// ends or breaks first. State lives in locals here (no class property in the loop).
    private func run(_ state: inout State, availableBits: Int) -> String? {
        let data = UnsafeRawPointer(self.data.baseAddress!)
        let (output, total, clearCode, eofCode) = (state.output, state.total, state.clearCode, state.eofCode)
        let (prefix, suffix, offset, length) = (prefix, suffix, offset, length)
        var bitPosition = 0
        var (runningCode, runningBits, maxCode1) = (state.runningCode, state.runningBits, state.maxCode1)
        var lastCode = state.lastCode
        // Whether entry 4095 is made: the table is full, every code up to 4095 is defined.
        var isFull = false
        var position = 0
        // The previous code's string in the output.
        var lastStart = 0
        var lastLength = 0
        while position < total {
            guard bitPosition &+ runningBits <= availableBits else {
                state.position = position
                return "GIF image data ends before the image is complete"
            }
            let word = UInt64(littleEndian: data.loadUnaligned(fromByteOffset: bitPosition &>> 3, as: UInt64.self))
            let code = Int(truncatingIfNeeded: word &>> UInt64(bitPosition & 7)) & ((1 &<< runningBits) &- 1)
            bitPosition &+= runningBits
            if runningCode < Self.maxCode + 2 {
                runningCode &+= 1
                if runningCode > maxCode1 && runningBits < 12 {
                    maxCode1 &<<= 1
                    runningBits &+= 1
                }
            }
            if code == eofCode {
                state.position = position
                return "GIF image data ends (end-of-information code) before the image is complete"
            }
            if code == clearCode {
                state.runningCode = runningCode
                state.reset()
                (runningCode, runningBits, maxCode1) = (state.runningCode, state.runningBits, state.maxCode1)
                lastCode = state.lastCode
                isFull = false
                continue
            }
            let slot = runningCode &- 2
            if state.isDamaged || (code > slot && code > eofCode) {
                // A code that is not in the table: giflib's own rules from here to the next clear.
                if !state.isDamaged {
                    guard lastCode != Self.noCode else {
                        state.position = position
                        return "corrupt GIF image data (first code is not an index)"
                    }
                    prefix[eofCode] = UInt16(Self.noCode)
                    for entry in slot...Self.maxCode { prefix[entry] = UInt16(Self.noCode) }
                    state.isDamaged = true
                }
                (state.runningCode, state.runningBits, state.maxCode1) = (runningCode, runningBits, maxCode1)
                state.lastCode = lastCode
                state.position = position
                if let failure = slowCode(code, &state) { return failure }
                (lastCode, position) = (state.lastCode, state.position)
                continue
            }
            let start = position
            let room = total &- start
            let stringLength: Int
            if code < clearCode {
                output[start] = UInt8(truncatingIfNeeded: code)
                stringLength = 1
            } else if code < slot || isFull {
                stringLength = length[code]
                Self.copy(output, from: offset[code], to: start, count: stringLength, room: room)
            } else {
                // code == slot, the entry being made: the previous string plus its own first index.
                guard lastCode != Self.noCode else {
                    state.position = position
                    return "corrupt GIF image data (first code is not an index)"
                }
                stringLength = lastLength &+ 1
                Self.copy(output, from: lastStart, to: start, count: lastLength, room: room)
                if lastLength < room { output[start &+ lastLength] = output[lastStart] }
            }
            if lastCode != Self.noCode && !isFull {
                prefix[slot] = UInt16(truncatingIfNeeded: lastCode)
                suffix[slot] = output[start]
                offset[slot] = lastStart
                length[slot] = lastLength &+ 1
                isFull = slot == Self.maxCode
            }
            lastCode = code
            lastStart = start
            lastLength = stringLength
            position = start &+ min(stringLength, room)
        }
        state.position = position
        return nil
    }

    /// Writes the `count` indices at `source` (earlier in `output`) at `target`, or the first
    /// `room` of them. Eight at a time when they fit with room to spare (the output has 8 bytes
    /// past its end): the source ends before the target starts, so each 8-byte load reads only
    /// indices already final.
    @inline(__always)
    private static func copy(
        _ output: UnsafeMutablePointer<UInt8>, from source: Int, to target: Int, count: Int, room: Int
    ) {
        let from = UnsafeRawPointer(output + source)
        let to = UnsafeMutableRawPointer(output + target)
        if count <= room {
            var done = 0
            while done < count {
                to.storeBytes(
                    of: from.loadUnaligned(fromByteOffset: done, as: UInt64.self), toByteOffset: done, as: UInt64.self)
                done &+= 8
            }
        } else {
            to.copyMemory(from: from, byteCount: room)
        }
    }

    /// One code decoded exactly as giflib does it (`DGifDecompressLine`), for streams whose table
    /// may refer to codes not yet defined: the string is found by walking prefixes onto a stack.
    private func slowCode(_ code: Int, _ state: inout State) -> String? {
        let slot = state.runningCode - 2
        let lastCode = state.lastCode
        if code < state.clearCode {
            if state.position < state.total {
                state.output[state.position] = UInt8(truncatingIfNeeded: code)
                state.position += 1
            }
        } else {
            var depth = 0
            var current = code
            if Int(prefix[code]) == Self.noCode {
                current = lastCode
                let first = firstIndex(of: code == slot ? lastCode : code, clearCode: state.clearCode)
                suffix[slot] = UInt8(truncatingIfNeeded: first)
                stack[depth] = UInt8(truncatingIfNeeded: first)
                depth += 1
            }
            while depth < Self.maxCode && current > state.clearCode && current <= Self.maxCode {
                stack[depth] = suffix[current]
                depth += 1
                current = Int(prefix[current])
            }
            if depth >= Self.maxCode || current > Self.maxCode { return "corrupt GIF image data (bad LZW code)" }
            stack[depth] = UInt8(truncatingIfNeeded: current)
            depth += 1
            while depth > 0 && state.position < state.total {
                depth -= 1
                state.output[state.position] = stack[depth]
                state.position += 1
            }
        }
        if lastCode != Self.noCode && Int(prefix[slot]) == Self.noCode {
            prefix[slot] = UInt16(lastCode)
            let first = firstIndex(of: code == slot ? lastCode : code, clearCode: state.clearCode)
            suffix[slot] = UInt8(truncatingIfNeeded: first)
        }
        state.lastCode = code
        return nil
    }

    /// The first index of `code`'s string, by walking prefixes at most 4,096 steps (giflib's
    /// `DGifGetPrefixChar`: ``noCode`` for a walk that leaves the table).
    private func firstIndex(of code: Int, clearCode: Int) -> Int {
        var code = code
        var steps = 0
        while code > clearCode && steps <= Self.maxCode {
            steps += 1
            if code > Self.maxCode { return Self.noCode }
            code = Int(prefix[code])
        }
        return code
    }
}
