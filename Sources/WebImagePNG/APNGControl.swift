import Foundation
import WebImage

/// One animation frame of an APNG: its `fcTL` control data and where its compressed data lies.
struct APNGFrameControl: Sendable {
    /// What happens to the frame's region after it has been shown (`dispose_op`).
    enum Dispose: UInt8, Sendable {
        case none = 0, background = 1, previous = 2
    }

    /// How the frame is drawn onto the canvas (`blend_op`).
    enum Blend: UInt8, Sendable {
        case source = 0, over = 1
    }

    var x: Int
    var y: Int
    var width: Int
    var height: Int
    var delayNumerator: UInt16
    var delayDenominator: UInt16
    var dispose: Dispose
    var blend: Blend
    /// The frame's zlib data: IDAT data fields, or fdAT data fields without their sequence number.
    var dataRanges: [Range<Int>] = []

    /// The stored delay in seconds (a zero denominator means hundredths, per the APNG spec).
    var storedDuration: Double {
        Double(delayNumerator) / Double(delayDenominator == 0 ? 100 : delayDenominator)
    }

    /// The display duration in seconds (``FrameDurationRule``: 10 ms or less becomes 100 ms).
    var duration: Double { FrameDurationRule.played(storedDuration) }

    var size: PixelSize { PixelSize(width: width, height: height) }
}

/// Everything needed to decode and composite the frames of an APNG on their own.
struct APNGAnimationInfo: Sendable {
    /// IHDR's size: every frame is composited on a canvas this size.
    var canvasSize: PixelSize
    /// acTL `num_plays` (0 = forever).
    var loopCount: Int
    /// The animation frames, in order (acTL `num_frames` of them).
    var frames: [APNGFrameControl]
    /// Whether the IDAT image is frame 0 (an `fcTL` precedes `IDAT`).
    var defaultImageIsFirstFrame: Bool
    /// IHDR's 13 data bytes.
    var headerData: [UInt8]
    /// Whole PLTE and tRNS chunks, shared by every frame.
    var sharedChunks: [Range<Int>]
}

/// Reads an APNG's animation control chunks (acTL, fcTL, fdAT) without decoding pixels.
enum APNGControlParser {
    /// The outcome of reading the control chunks.
    enum Outcome {
        /// No usable animation: show the static default image (not an APNG, or the control data
        /// is broken, which the APNG spec answers with the default image).
        case still(reason: String?)
        /// A valid animation.
        case animated(APNGAnimationInfo)
    }

    /// Reads the control chunks of `bytes` (a whole PNG stream).
    ///
    /// Throws `badImageData` only when the file holds fewer `fcTL` chunks than acTL declares:
    /// the file ends before the animation does, like any truncated PNG. With `budget`, throws
    /// `tooLarge` as soon as the `fcTL` chunks met exceed the animation budget for the canvas,
    /// without reading further.
    static func parse(_ bytes: UnsafeRawBufferPointer, budget: ImageDecodingOptions? = nil) throws -> Outcome {
        let reader = PNGChunkReader(bytes: bytes)
        let chunks = reader.chunks()
        guard let ihdr = chunks.first, ihdr.type == PNGChunk.IHDR, ihdr.length == 13 else {
            return .still(reason: nil)
        }
        let canvas = PixelSize(width: Int(reader.uint32(at: ihdr.offset + 8)), height: Int(reader.uint32(at: ihdr.offset + 12)))
        let frameLimit = budget.map { $0.maxAnimationFrameCount(framePixelCount: canvas.pixelCount) } ?? .max

        var declaredFrames: UInt32?
        var loopCount = 0
        var broken: String?
        var frames: [APNGFrameControl] = []
        var sharedChunks: [Range<Int>] = []
        var defaultIsFirst = false
        var nextSequence: UInt32 = 0
        var seenIDAT = false
        var idatEnded = false
        var fcTLCount = 0

        func fail(_ reason: String) { if broken == nil { broken = reason } }
        func checkSequence(_ chunk: PNGChunk) {
            let sequence = reader.uint32(at: chunk.offset + 8)
            if sequence != nextSequence { fail("sequence number \(sequence), expected \(nextSequence)") }
            nextSequence = sequence &+ 1
        }

        for chunk in chunks.dropFirst() {
            switch chunk.type {
            case PNGChunk.IDAT:
                if idatEnded { fail("IDAT chunks are not consecutive") }
                seenIDAT = true
                if defaultIsFirst, var first = frames.popLast() {
                    first.dataRanges.append(chunk.dataRange)
                    frames.append(first)
                }
            case PNGChunk.PLTE, PNGChunk.tRNS:
                if !seenIDAT { sharedChunks.append(chunk.fullRange) }
            case PNGChunk.acTL:
                guard !seenIDAT else { break }  // acTL after IDAT: not an APNG
                if declaredFrames != nil { fail("more than one acTL chunk"); break }
                guard chunk.length == 8, reader.hasValidCRC(chunk) else { fail("bad acTL chunk"); break }
                declaredFrames = reader.uint32(at: chunk.offset + 8)
                loopCount = Int(reader.uint32(at: chunk.offset + 12))
            case PNGChunk.fcTL:
                fcTLCount += 1
                if fcTLCount > frameLimit, let budget {
                    throw WebImageError.tooManyAnimationFrames(
                        moreThan: frameLimit, canvasSize: canvas, limit: budget.maxAnimationPixelCount)
                }
                guard chunk.length == 26, reader.hasValidCRC(chunk) else { fail("bad fcTL chunk"); break }
                checkSequence(chunk)
                let o = chunk.offset + 12
                guard let dispose = APNGFrameControl.Dispose(rawValue: bytes[o + 20]),
                    let blend = APNGFrameControl.Blend(rawValue: bytes[o + 21])
                else { fail("unknown dispose_op or blend_op"); break }
                let frame = APNGFrameControl(
                    x: Int(reader.uint32(at: o + 8)), y: Int(reader.uint32(at: o + 12)),
                    width: Int(reader.uint32(at: o)), height: Int(reader.uint32(at: o + 4)),
                    delayNumerator: reader.uint16(at: o + 16), delayDenominator: reader.uint16(at: o + 18),
                    dispose: dispose, blend: blend)
                if !seenIDAT {
                    if defaultIsFirst { fail("two fcTL chunks before IDAT") }
                    defaultIsFirst = true
                    if frame.x != 0 || frame.y != 0 || frame.size != canvas {
                        fail("the first frame's fcTL does not cover the canvas")
                    }
                }
                frames.append(frame)
            case PNGChunk.fdAT:
                guard chunk.length >= 4, reader.hasValidCRC(chunk) else { fail("bad fdAT chunk"); break }
                checkSequence(chunk)
                guard seenIDAT, var frame = frames.popLast() else { fail("fdAT without a preceding fcTL"); break }
                if frames.isEmpty && defaultIsFirst { fail("fdAT belongs to the IDAT frame") }
                frame.dataRanges.append((chunk.offset + 12)..<(chunk.offset + 8 + chunk.length))
                frames.append(frame)
            default:
                break
            }
            if seenIDAT && chunk.type != PNGChunk.IDAT { idatEnded = true }
        }

        guard let declared = declaredFrames else { return .still(reason: nil) }
        if UInt64(fcTLCount) < UInt64(declared) {
            throw WebImageError.badData("APNG declares \(declared) frames but holds \(fcTLCount) fcTL chunks")
        }
        if let broken { return .still(reason: broken) }
        guard declared > 0 else { return .still(reason: "acTL declares no frames") }
        frames = Array(frames.prefix(Int(declared)))
        for (index, frame) in frames.enumerated() {
            if frame.dataRanges.isEmpty { return .still(reason: "frame \(index) has no image data") }
            let fits = frame.width > 0 && frame.height > 0 && frame.x + frame.width <= canvas.width
                && frame.y + frame.height <= canvas.height
            if !fits { return .still(reason: "frame \(index) lies outside the canvas") }
        }
        let info = APNGAnimationInfo(
            canvasSize: canvas, loopCount: loopCount, frames: frames, defaultImageIsFirstFrame: defaultIsFirst,
            headerData: Array(UnsafeRawBufferPointer(rebasing: bytes[ihdr.dataRange])), sharedChunks: sharedChunks)
        return .animated(info)
    }
}
