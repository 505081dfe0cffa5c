import WebImage

/// How a GIF frame is disposed of before the next frame is drawn (graphic control extension).
enum GIFDisposal: Sendable, Equatable {
    /// 0 (unspecified) and 1 (do not dispose): leave the frame on the canvas.
    case keep
    /// 2: clear the frame's rectangle to transparent (as browsers and ImageIO do).
    case background
    /// 3: restore the frame's rectangle to what it was before the frame was drawn.
    case previous

    init(rawValue: UInt8) {
        switch rawValue {
        case 2: self = .background
        case 3: self = .previous
        default: self = .keep  // 0, 1 and the undefined values 4–7
        }
    }
}

/// A rectangle on the GIF canvas, in pixels.
struct GIFRect: Sendable, Equatable {
    var x: Int, y: Int, width: Int, height: Int
}

/// One image of a GIF: where its bytes start and how it is composited.
struct GIFFrameRecord: Sendable, Equatable {
    /// Offset of the image separator (0x2C) in the file.
    var descriptorOffset: Int
    /// The frame's rectangle as declared (may extend beyond the canvas).
    var rect: GIFRect
    var interlaced: Bool
    var disposal: GIFDisposal
    /// The transparent palette index from the graphic control extension, if any.
    var transparentIndex: Int?
    /// The delay in centiseconds (raw).
    var delayCentiseconds: Int

    /// The stored delay in seconds.
    var storedDuration: Double { Double(delayCentiseconds) / 100 }

    /// The display duration in seconds (``FrameDurationRule``: 10 ms or less becomes 100 ms).
    var duration: Double { FrameDurationRule.played(storedDuration) }

    /// Checks, before any pixel memory, that this frame's area is within `maxPixelCount` and that
    /// its descriptor and the file's header lie inside `bytes` (both frame decoders start here).
    func checkDecodable(in bytes: UnsafeRawBufferPointer, container: GIFContainer, maxPixelCount: Int) throws {
        let area = PixelSize(width: rect.width, height: rect.height)
        if area.pixelCount > maxPixelCount {
            throw WebImageError.tooManyPixels(width: area.width, height: area.height, limit: maxPixelCount)
        }
        guard descriptorOffset < bytes.count, container.headerLength <= bytes.count else {
            throw WebImageError.badData("GIF frame offset out of range")
        }
    }
}

/// The structure of a GIF file, read in one cheap pass without decompressing any pixels.
///
/// Only complete images are indexed: the walk stops at the trailer or at the first truncated
/// block, keeping every image before it (browsers show the complete frames of a truncated GIF).
/// Stray bytes between blocks are skipped. A file without one complete image is rejected.
struct GIFContainer: Sendable {
    /// The logical screen size from the header.
    var screenSize: PixelSize
    /// The canvas: the logical screen enlarged to contain frame 0, as browsers and Pillow do.
    var canvasSize: PixelSize
    /// The union of the logical screen and every frame's rectangle (what a decoder that grows the
    /// canvas, as Pillow does, would allocate).
    var extent: PixelSize
    /// Length of the header, logical screen descriptor and global colour table.
    var headerLength: Int
    /// The global colour table as RGB triples, if present.
    var globalPalette: [UInt8]?
    var frames: [GIFFrameRecord]
    /// The raw NETSCAPE2.0 / ANIMEXTS1.0 loop count (first one found), nil when absent.
    var rawLoopCount: Int?
    /// Where the ICC profile and XMP application extensions are (the first of each the walk met).
    var applicationExtensions = GIFApplicationExtensions()
    /// Whether the walk ended at the trailer (0x3B): every block of the file is in.
    var reachedTrailer = false
    /// The image the walk stopped in: its descriptor is in, its data is cut (a file still
    /// arriving, or truncated). Not in ``frames``.
    var partialFrame: GIFFrameRecord?

    /// Whether any frame declares a transparent index.
    var hasTransparency: Bool { frames.contains { $0.transparentIndex != nil } }

    /// Whether the bytes start with a GIF signature.
    static func hasSignature(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 6 else { return false }
        let prefix = Array(bytes[0..<6])
        return prefix == Array("GIF87a".utf8) || prefix == Array("GIF89a".utf8)
    }

    /// How many bytes the walk read (it stops early for first-frame-only decoding and at the
    /// animation budget).
    var scannedLength: Int

    /// Parses the block structure of `bytes`. Throws `badImageData` for anything but a GIF with
    /// at least one complete image.
    ///
    /// With `limits` (a decode), sizes are checked as they are met, before any pixel is decoded:
    /// each frame's rectangle, the canvas (the logical screen enlarged by frame 0, checked when
    /// frame 0 is met, so that bytes without a complete image stay `badImageData`) and the extent
    /// of all frames against
    /// ``ImageDecodingOptions/maxPixelCount``, and the frames counted so far against
    /// ``ImageDecodingOptions/maxAnimationPixelCount`` (all `tooLarge`). The walk stops after
    /// frame 0 when ``ImageDecodingOptions/firstFrameOnly`` is set. Without `limits` (a header
    /// probe) every frame is indexed and nothing is refused for its size.
    ///
    /// With `allowsPartialFirstFrame` (incremental decoding), a file whose first image is still
    /// arriving is accepted: ``frames`` is empty, ``partialFrame`` holds it and the canvas is sized
    /// from it.
    init(
        parsing bytes: UnsafeRawBufferPointer, limits: ImageDecodingOptions? = nil, allowsPartialFirstFrame: Bool = false
    ) throws {
        guard Self.hasSignature(bytes) else { throw WebImageError.badData("not a GIF (bad signature)") }
        guard bytes.count >= 13 else { throw WebImageError.badData("GIF truncated in the logical screen descriptor") }
        var reader = GIFByteReader(bytes: bytes, offset: 6)
        let width = reader.uint16(at: 6), height = reader.uint16(at: 8)
        let flags = bytes[10]
        screenSize = PixelSize(width: width, height: height)
        var offset = 13
        if flags & 0x80 != 0 {
            let length = 3 << (Int(flags & 0x07) + 1)
            guard offset + length <= bytes.count else {
                throw WebImageError.badData("GIF truncated in the global colour table")
            }
            globalPalette = Array(bytes[offset..<offset + length])
            offset += length
        }
        headerLength = offset
        reader.offset = offset
        var limiter = limits.map { GIFWalkLimiter(options: $0, screenSize: PixelSize(width: width, height: height)) }
        var trailer = false
        var partial: GIFFrameRecord?
        var extensions = GIFApplicationExtensions()
        let (frames, loopCount) = try Self.walkBlocks(
            &reader, reachedTrailer: &trailer, recordsPartialFirstFrame: allowsPartialFirstFrame, partialFrame: &partial,
            extensions: &extensions
        ) { frame, count in
            try limiter?.admit(frame, count: count) ?? true
        }
        reachedTrailer = trailer
        partialFrame = partial
        self.frames = frames
        rawLoopCount = loopCount
        applicationExtensions = extensions
        scannedLength = reader.offset
        guard let first = frames.first ?? (allowsPartialFirstFrame ? partial : nil) else {
            throw WebImageError.badData("GIF has no complete image")
        }
        canvasSize = Self.canvas(screen: screenSize, first: first.rect)
        extent = frames.reduce(screenSize) { size, frame in Self.union(size, frame.rect) }
    }

    /// The logical screen enlarged to contain frame 0.
    static func canvas(screen: PixelSize, first: GIFRect) -> PixelSize {
        union(screen, first)
    }

    /// The smallest size from the origin that holds `size` and `rect`.
    static func union(_ size: PixelSize, _ rect: GIFRect) -> PixelSize {
        PixelSize(width: max(size.width, rect.x + rect.width), height: max(size.height, rect.y + rect.height))
    }

    /// The complete images and the first loop count, up to the trailer or the first damage, or
    /// until `admit` (called with each frame and how many frames came before it) returns false;
    /// the complete application extensions met on the way are noted in `extensions`.
    private static func walkBlocks(
        _ reader: inout GIFByteReader, reachedTrailer: inout Bool, recordsPartialFirstFrame: Bool,
        partialFrame: inout GIFFrameRecord?, extensions: inout GIFApplicationExtensions,
        admit: (GIFFrameRecord, Int) throws -> Bool
    ) throws -> ([GIFFrameRecord], Int?) {
        var frames: [GIFFrameRecord] = []
        var loopCount: Int?
        var control: (disposal: GIFDisposal, transparent: Int?, delay: Int)?
        while let introducer = reader.byte() {
            switch introducer {
            case 0x21:
                let start = reader.offset + 1
                guard let label = reader.byte(), let blocks = reader.subBlocks() else { return (frames, loopCount) }
                if label == 0xF9, let first = blocks.first, first.count >= 4 {
                    let packed = first[0]
                    control = (
                        GIFDisposal(rawValue: (packed >> 2) & 0x07),
                        packed & 0x01 != 0 ? Int(first[3]) : nil,
                        Int(first[1]) | Int(first[2]) << 8
                    )
                } else if label == 0xFF, loopCount == nil, blocks.count >= 2,
                    blocks[0] == Array("NETSCAPE2.0".utf8) || blocks[0] == Array("ANIMEXTS1.0".utf8),
                    blocks[1].count >= 3, blocks[1][0] == 1
                {
                    loopCount = Int(blocks[1][1]) | Int(blocks[1][2]) << 8
                } else if label == 0xFF, let identifier = blocks.first {
                    extensions.note(identifier, start: start, terminator: reader.offset - 1)
                }
            case 0x2C:
                let start = reader.offset - 1
                guard let descriptor = reader.read(9) else { return (frames, loopCount) }
                let flags = descriptor[8]
                if flags & 0x80 != 0 {
                    guard reader.skip(3 << (Int(flags & 0x07) + 1)) else { return (frames, loopCount) }
                }
                let rect = GIFRect(
                    x: Int(descriptor[0]) | Int(descriptor[1]) << 8,
                    y: Int(descriptor[2]) | Int(descriptor[3]) << 8,
                    width: Int(descriptor[4]) | Int(descriptor[5]) << 8,
                    height: Int(descriptor[6]) | Int(descriptor[7]) << 8)
                let frame = GIFFrameRecord(
                    descriptorOffset: start, rect: rect, interlaced: flags & 0x40 != 0,
                    disposal: control?.disposal ?? .keep, transparentIndex: control?.transparent,
                    delayCentiseconds: control?.delay ?? 0)
                // LZW minimum code size, then the data sub-blocks (only skipped here).
                guard reader.byte() != nil, reader.skipSubBlocks() else {
                    // Only asked for by incremental decoding, and only for the first image.
                    if recordsPartialFirstFrame, frames.isEmpty, try admit(frame, 0) { partialFrame = frame }
                    return (frames, loopCount)
                }
                guard try admit(frame, frames.count) else { return (frames, loopCount) }
                frames.append(frame)
                control = nil
            case 0x3B:
                reachedTrailer = true
                return (frames, loopCount)
            default:
                continue  // stray byte between blocks: skipped, as the GIF87a spec and Pillow do
            }
        }
        return (frames, loopCount)
    }
}

/// The checks a decode makes on each frame as the block walk meets it.
struct GIFWalkLimiter {
    let options: ImageDecodingOptions
    let screenSize: PixelSize
    private var canvas: PixelSize?
    private var extent: PixelSize
    private var frameLimit = Int.max

    init(options: ImageDecodingOptions, screenSize: PixelSize) {
        self.options = options
        self.screenSize = screenSize
        extent = screenSize
    }

    /// Whether to index `frame` (the walk stops otherwise); throws `tooLarge` past a limit.
    mutating func admit(_ frame: GIFFrameRecord, count: Int) throws -> Bool {
        // A first-frame-only decode skips every frame after frame 0, whatever size it declares.
        if canvas != nil, options.firstFrameOnly { return false }
        let limit = options.maxPixelCount
        let area = PixelSize(width: frame.rect.width, height: frame.rect.height)
        if area.pixelCount > limit {
            throw WebImageError.tooManyPixels(width: area.width, height: area.height, limit: limit)
        }
        guard let canvas else {
            // Frame 0 fixes the canvas; a first-frame-only decode needs nothing after it.
            let canvas = GIFContainer.canvas(screen: screenSize, first: frame.rect)
            if canvas.pixelCount > limit {
                throw WebImageError.tooManyPixels(width: canvas.width, height: canvas.height, limit: limit)
            }
            self.canvas = canvas
            extent = canvas
            frameLimit = options.maxAnimationFrameCount(framePixelCount: canvas.pixelCount)
            return true
        }
        // Frames placed far outside the screen are clipped, but a decoder that grows the canvas
        // would allocate their extent: treat such files as decompression bombs.
        extent = GIFContainer.union(extent, frame.rect)
        if extent.pixelCount > limit {
            throw WebImageError(.tooLarge, "GIF frames extend to \(extent), over the limit of \(limit) pixels")
        }
        if count + 1 > frameLimit {
            throw WebImageError.tooManyAnimationFrames(
                moreThan: frameLimit, canvasSize: canvas, limit: options.maxAnimationPixelCount)
        }
        return true
    }
}

/// A bounds-checked cursor over GIF bytes: every read returns nil instead of running past the end.
struct GIFByteReader {
    let bytes: UnsafeRawBufferPointer
    var offset: Int

    func uint16(at position: Int) -> Int {
        Int(bytes[position]) | Int(bytes[position + 1]) << 8
    }

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func read(_ count: Int) -> [UInt8]? {
        guard count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count <= bytes.count - offset else { return false }
        offset += count
        return true
    }

    /// Skips data sub-blocks up to and including the terminator; false when truncated.
    mutating func skipSubBlocks() -> Bool {
        while let size = byte() {
            if size == 0 { return true }
            guard skip(Int(size)) else { return false }
        }
        return false
    }

    /// Reads an extension's sub-blocks (keeping only the first two, which is all we inspect).
    mutating func subBlocks() -> [[UInt8]]? {
        var blocks: [[UInt8]] = []
        while let size = byte() {
            if size == 0 { return blocks }
            if blocks.count < 2 {
                guard let block = read(Int(size)) else { return nil }
                blocks.append(block)
            } else {
                guard skip(Int(size)) else { return nil }
            }
        }
        return nil
    }
}
