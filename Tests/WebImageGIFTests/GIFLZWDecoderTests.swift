import Foundation
import Testing
import WebImage

@testable import WebImageGIF

/// Our LZW decoder against giflib on hand-made code streams: valid ones (every string length, the
/// table filling up, deferred clears), damaged ones (codes past the table, end codes too soon, a
/// first code that is not an index, cut sub-blocks) and random ones. giflib is the reference.
@Suite("GIF LZW decoder: index for index giflib's")
struct GIFLZWDecoderTests {
    /// A one-image GIF whose image data is `codes` packed as giflib reads them (the code width
    /// grows as giflib grows it, clear codes reset it), in sub-blocks of `blockSize`.
    static func gif(
        width: Int, height: Int, minimumCodeSize: Int = 2, codes: [Int], blockSize: Int = 255,
        terminated: Bool = true, interlaced: Bool = false
    ) -> Data {
        var bytes = Array("GIF89a".utf8)
        bytes += [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0x80 | 0x07, 0, 0]
        bytes += (0..<256).flatMap { [UInt8($0), UInt8(255 - $0), UInt8($0 / 2)] }
        bytes += [0x2C, 0, 0, 0, 0, UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)]
        bytes += [interlaced ? 0x40 : 0, UInt8(minimumCodeSize)]
        let packed = pack(codes, minimumCodeSize: minimumCodeSize)
        var start = 0
        while start < packed.count {
            let end = min(packed.count, start + blockSize)
            bytes.append(UInt8(end - start))
            bytes += packed[start..<end]
            start = end
        }
        if terminated { bytes += [0, 0x3B] }
        return Data(bytes)
    }

    /// Packs codes least significant bit first at giflib's running code width.
    static func pack(_ codes: [Int], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize
        var (runningCode, runningBits, maxCode1) = (clear + 2, minimumCodeSize + 1, 1 << (minimumCodeSize + 1))
        var (bits, count) = (UInt64(0), 0)
        var out: [UInt8] = []
        for code in codes {
            bits |= UInt64(code & ((1 << runningBits) - 1)) << UInt64(count)
            count += runningBits
            while count >= 8 {
                out.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
                count -= 8
            }
            if runningCode < 4097 {
                runningCode += 1
                if runningCode > maxCode1 && runningBits < 12 {
                    maxCode1 <<= 1
                    runningBits += 1
                }
            }
            if code == clear {
                (runningCode, runningBits, maxCode1) = (clear + 2, minimumCodeSize + 1, 1 << (minimumCodeSize + 1))
            }
        }
        if count > 0 { out.append(UInt8(truncatingIfNeeded: bits)) }
        return out
    }

    /// The differential check found nothing, and our decoder's outcome for frame 0 (for the test
    /// to assert what it means).
    static func compare(_ data: Data) throws -> GIFLZWDifferential.Outcome {
        #expect(GIFLZWDifferential.firstDifference(in: data) == nil)
        return try [UInt8](data).withUnsafeBytes { raw in
            let container = try GIFContainer(parsing: raw, allowsPartialFirstFrame: true)
            let record = try #require(container.frames.first ?? container.partialFrame)
            return GIFLZWDifferential.decoded(
                GIFFrameDecoder(retainedCapacity: 1 << 20), raw, container, record, 1 << 24,
                partial: container.frames.isEmpty)
        }
    }

    static func indices(_ outcome: GIFLZWDifferential.Outcome) -> [UInt8]? {
        if case .decoded(_, _, let indices, _) = outcome { return indices }
        return nil
    }

    @Test func literalsAndRepeats() throws {
        // clear, 1, 2, 6 (= 1 2), 8 (the entry being made: 1 2 1), 0; the end code is not read.
        let outcome = try Self.compare(Self.gif(width: 8, height: 1, codes: [4, 1, 2, 6, 8, 0, 5]))
        #expect(Self.indices(outcome) == [1, 2, 1, 2, 1, 2, 1, 0])
    }

    @Test func aFullTableKeepsDecodingAndEntry4095IsMadeOnce() throws {
        // 3,838 indices fill the table up to entry 4094; the next code (4095, the entry being
        // made) makes entry 4095 as giflib 5.2 does, and the table then stays as it is.
        let fill = (0..<3838).map { $0 % 200 }
        let tail = [4095, 4000, 4095, 7, 300]
        let whole = try Self.compare(
            Self.gif(width: 3847, height: 1, minimumCodeSize: 8, codes: [256] + fill + tail + [257]))
        // 4095: 37 37; 4000 (indices 3742 and 3743): 142 143; 4095 again: 37 37; 7; 300: 42 43.
        #expect(Self.indices(whole).map { Array($0.suffix(9)) } == [37, 37, 142, 143, 37, 37, 7, 42, 43])
        // One index more than the codes make: the end code is read, an error in both.
        let short = try Self.compare(
            Self.gif(width: 3848, height: 1, minimumCodeSize: 8, codes: [256] + fill + tail + [257]))
        #expect(short == .failed(.badImageData))
    }

    @Test func codesPastTheTableFollowGiflib() throws {
        // 300 is far past the next free entry: giflib outputs the previous string plus index 2 and
        // keeps going with entries that point at undefined codes.
        let tails = [[300, 1, 301, 258, 3], [300, 259, 260, 261, 262], [300, 300, 300, 2, 1], [300, 256, 1, 258, 259]]
        for tail in tails {
            let ones = Array(repeating: 1, count: 12)
            let codes = [256, 1] + tail + ones + [257]
            _ = try Self.compare(Self.gif(width: 12, height: 1, minimumCodeSize: 8, codes: codes))
        }
        let outcome = try Self.compare(Self.gif(width: 3, height: 1, minimumCodeSize: 8, codes: [256, 65, 300, 257]))
        #expect(Self.indices(outcome) == [65, 65, 2])
    }

    @Test func brokenStreamsFailLikeGiflib() throws {
        // The end code before the image is complete.
        #expect(try Self.compare(Self.gif(width: 8, height: 1, codes: [4, 1, 2, 5])) == .failed(.badImageData))
        // A first code that is not an index.
        #expect(try Self.compare(Self.gif(width: 8, height: 1, codes: [4, 7, 1, 5])) == .failed(.badImageData))
        // Data that stops (terminator) before the image is complete.
        #expect(try Self.compare(Self.gif(width: 40, height: 1, codes: [4, 1, 2, 3])) == .failed(.badImageData))
        // A code size above 8.
        var data = [UInt8](Self.gif(width: 2, height: 1, codes: [4, 1, 1, 5]))
        data[13 + 768 + 10] = 9
        #expect(try Self.compare(Data(data)) == .failed(.badImageData))
    }

    @Test func everyMinimumCodeSizeFromZeroToEight() throws {
        for size in 0...8 {
            let clear = 1 << size
            let literal = max(0, clear - 1)
            let codes = [clear] + Array(repeating: literal, count: 50) + [clear, literal, clear + 2, clear + 1]
            let outcome = try Self.compare(Self.gif(width: 10, height: 5, minimumCodeSize: size, codes: codes))
            if size > 0 { #expect(Self.indices(outcome)?.count == 50, "code size \(size)") }
        }
    }

    @Test func interlacedAndTinySubBlocks() throws {
        let codes = [4] + (0..<60).map { $0 % 4 } + [5]
        let outcome = try Self.compare(Self.gif(width: 6, height: 10, codes: codes, blockSize: 1, interlaced: true))
        #expect(Self.indices(outcome)?.count == 60)
    }

    @Test func cutFilesGiveTheRowsGiflibGives() throws {
        let codes = [4] + (0..<400).map { ($0 / 3) % 4 } + [5]
        let whole = [UInt8](Self.gif(width: 20, height: 20, codes: codes, blockSize: 7))
        // The image data starts after the header, palette, descriptor and code size.
        for cut in stride(from: 13 + 768 + 11, through: whole.count, by: 3) {
            #expect(GIFLZWDifferential.firstDifference(in: Data(whole[0..<cut])) == nil, "cut at \(cut)")
        }
        let unterminated = Self.gif(width: 20, height: 20, codes: codes, blockSize: 7, terminated: false)
        let outcome = try Self.compare(unterminated)
        if case .decoded(_, let rows, _, _) = outcome {
            #expect(rows == 19, "giflib's last row fails when the sub-blocks are not closed")
        } else {
            Issue.record("expected 19 rows, got \(outcome)")
        }
    }

    @Test func randomCodeStreams() throws {
        var state: UInt64 = 0x1234_5678
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var decoded = 0
        for round in 0..<400 {
            let size = [2, 3, 4, 8][round % 4]
            let clear = 1 << size
            var codes = [clear]
            var tableSize = clear + 2
            for _ in 0..<(300 + next(3000)) {
                switch next(100) {
                case 0: codes.append(clear); tableSize = clear + 2
                case 1: codes.append(clear + 2 + next(4096 - clear - 2))  // anything, even past the table
                case 2..<40: codes.append(next(clear))
                default: codes.append(clear + 2 + next(max(1, tableSize - clear - 1)))
                }
                tableSize += 1
            }
            let width = 1 + next(24), height = 1 + next(24)
            let data = Self.gif(
                width: width, height: height, minimumCodeSize: size, codes: codes, blockSize: 1 + next(255),
                interlaced: next(4) == 0)
            if case .decoded = try Self.compare(data) { decoded += 1 }
        }
        #expect(decoded > 20, "some random streams decode whole (\(decoded))")
    }
}
