public import Foundation
public import WebImage
import WebImageCodecs
import WebImagePNM

/// One fuzz entry point: the library code path a libFuzzer target drives with every input.
///
/// The `Fuzz/` package builds one libFuzzer executable per case (`fuzz-jpeg`, `fuzz-png`, …);
/// the replay tests run the committed seeds and every crash input ever found through the same
/// ``run(_:)``, so a crash found once stays a regression test.
///
/// ```swift
/// let outcome = FuzzTarget.png.run(bytes)
/// if case .contractViolation(let message) = outcome { print(message) }
/// ```
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `JPEGCoder` (libjpeg-turbo, DCT-domain thumbnails).
    case jpeg
    /// `PNGCoder`, still PNG and APNG (libpng and our APNG compositor). Chunk CRCs are repaired first.
    case png
    /// `GIFCoder` (our LZW decoder and compositor).
    case gif
    /// Differential: every image of the input decoded by our LZW decoder and by giflib (whole,
    /// and cut short as incremental decoding sees it) must come out identical.
    case gifLZWDifferential = "gif-lzw-differential"
    /// Differential: a progressive JPEG decoded at thumbnail sizes with its unused AC scans left
    /// out (and DC-only coefficient arrays) and the plain libjpeg way must come out identical.
    case jpegScanSkipDifferential = "jpeg-scan-skip-differential"
    /// `WebPCoder`, still and animated (libwebp, demux). The RIFF size is repaired first.
    case webp
    /// `AVIFCoder` (libavif with its AV1 decoders), still and animated.
    case avif
    /// `HEIFCoder` (libheif with libde265), primary image and embedded thumbnails.
    case heif
    /// `JXLCoder` (libjxl), still and animated, bare codestream and container.
    case jxl
    /// `TIFFCoder` (libtiff through memory I/O), single and multi-page.
    case tiff
    /// `SVGCoder` (librsvg and cairo), rendered at its intrinsic size, as a thumbnail and scaled down.
    case svg
    /// `PNMCoder` (our Netpbm header reader and raster expansion): P5, P6 and P7 maps.
    case pnm
    /// `ImageFormat.detect(in:)`, `ImageFormat.isAnimated(_:)` and the standard
    /// `ImageCodersManager`'s sniff-and-decode path, over any bytes.
    case coders
    /// `DataURLImageLoader.decode(_:)`, the `data:` URL parser, plus base64 and percent-encoding
    /// round trips of the input.
    case dataURL = "data-url"
    /// The colour path: the input as an ICC profile in a JPEG and a PNG, decoded to sRGB through
    /// the standard coders (the profile readers, lcms2), then converted directly.
    case icc
    /// The metadata path: the input as EXIF, XMP and IPTC through our readers and editors under
    /// every policy, embedded in a JPEG and decoded and re-encoded keeping it, and as a TIFF
    /// file's metadata.
    case metadata

    /// Runs one input through this target's code path and checks the library's contracts.
    ///
    /// Never traps on its own: a broken contract (an error that is not a ``WebImageError``, a
    /// decoded buffer whose byte count disagrees with its size, a thumbnail larger than asked, a
    /// round trip that changes bytes) comes back as ``FuzzOutcome/contractViolation(_:)``; the
    /// fuzz executables turn it into a crash so that libFuzzer keeps the input.
    public func run(_ input: Data) -> FuzzOutcome {
        switch self {
        case .jpeg: DecoderExercise(decoder: JPEGCoder()).run(input)
        case .png: DecoderExercise(decoder: PNGCoder()).run(InputRepair.pngCRCsRepaired(input))
        case .gif: DecoderExercise(decoder: GIFCoder()).run(input)
        case .gifLZWDifferential:
            if let difference = GIFLZWDifferential.firstDifference(
                in: input, maxPixelCount: DecoderExercise.maxPixelCount)
            {
                .contractViolation("our LZW decoder and giflib differ: \(difference)")
            } else {
                ImageFormat.detect(in: input) == .gif ? .accepted : .rejected(.badImageData)
            }
        case .jpegScanSkipDifferential:
            if let difference = JPEGScanSkipDifferential.firstDifference(
                in: input, maxPixelCount: DecoderExercise.maxPixelCount)
            {
                .contractViolation("skipping unused progressive scans changes the decode: \(difference)")
            } else {
                ImageFormat.detect(in: input) == .jpeg ? .accepted : .rejected(.badImageData)
            }
        case .webp: DecoderExercise(decoder: WebPCoder()).run(InputRepair.riffSizeRepaired(input))
        case .avif: DecoderExercise(decoder: AVIFCoder()).run(input)
        case .heif: DecoderExercise(decoder: HEIFCoder()).run(input)
        case .jxl: DecoderExercise(decoder: JXLCoder()).run(input)
        case .tiff: DecoderExercise(decoder: TIFFCoder()).run(input)
        case .svg: DecoderExercise(decoder: SVGCoder()).run(input)
        case .pnm: DecoderExercise(decoder: PNMCoder()).run(input)
        case .coders: DecoderExercise(decoder: ImageCodersManager.standard(), sniffs: true).run(input)
        case .dataURL: DataURLExercise.run(input)
        case .icc: ColorProfileExercise.run(input)
        case .metadata: MetadataExercise.run(input)
        }
    }

    /// Runs one input given as raw memory (the form libFuzzer hands it over).
    public func run(_ bytes: UnsafeRawBufferPointer) -> FuzzOutcome {
        run(Data(bytes))
    }
}

/// What one fuzz input did.
public enum FuzzOutcome: Hashable, Sendable, CustomStringConvertible {
    /// At least one decode (or parse) succeeded and every result kept the contracts.
    case accepted
    /// Every attempt failed with a typed ``WebImageError`` of this code (the first one seen).
    case rejected(WebImageError.Code)
    /// A contract was broken; the message says which and how.
    case contractViolation(String)

    /// `accepted`, `rejected(code)` or `contract violation: message`.
    public var description: String {
        switch self {
        case .accepted: "accepted"
        case .rejected(let code): "rejected(\(code))"
        case .contractViolation(let message): "contract violation: \(message)"
        }
    }

    /// Whether a contract was broken.
    public var isViolation: Bool {
        if case .contractViolation = self { return true }
        return false
    }
}
