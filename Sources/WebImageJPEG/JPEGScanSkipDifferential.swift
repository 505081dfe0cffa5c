public import Foundation
import WebImage

/// Decodes a JPEG at thumbnail sizes both with and without its unused progressive scans, and
/// reports the first place the two differ: the check behind the `jpeg-scan-skip-differential`
/// fuzz target.
///
/// A 1/8 decode of a progressive file leaves out the AC scans of the components whose blocks
/// become one pixel (``JPEGScanFilter``) and keeps those components' DC coefficients alone
/// (`dc_store.c`); the plain decode reads every byte the way libjpeg does. The input is decoded
/// at three sizes: a thumbnail box that selects the 1/8 scale, the same box as a draft (no
/// resampling: libjpeg's own output), and a box that selects 2/8, where nothing is left out. At
/// each, when the plain decode succeeds the skipping one must succeed with the same pixels, size,
/// original size and orientation; when the plain decode fails the skipping one must fail with the
/// same error code.
///
/// One difference is by design (docs/formats.md, "Unused progressive scans are left out"):
/// damage inside a scan that is left out is never read, so a skipping decode may succeed where the
/// plain one failed (libjpeg only warns about broken entropy data, but refuses a scan header that
/// names a Huffman table the file never defines). It is accepted only when the filter really left
/// scans out, the plain failure is ``WebImageError/Code/badImageData``, and the filtered stream on
/// its own decodes the plain way too (so libjpeg accepts every byte the skipping decode read).
///
/// Where the skipping decode left scans out and succeeded, it must also have stored every
/// component whose blocks become one pixel in a DC-only array: that is what drives the fuzzer
/// through `dc_store.c`'s array requests and window moves.
///
/// ```swift
/// if let difference = JPEGScanSkipDifferential.firstDifference(in: data) { fatalError(difference) }
/// ```
public enum JPEGScanSkipDifferential {
    /// The first difference between the skipping and the plain decode of `data`, or nil when they
    /// agree (also when `data` has no readable JPEG header: both decodes read it the same way and
    /// nothing would be compared).
    ///
    /// Images above `maxPixelCount` are refused by both decodes before any pixel memory is made.
    public static func firstDifference(in data: Data, maxPixelCount: Int = 4_000_000) -> String? {
        guard let header = try? data.withUnsafeBytes({ bytes in
            try JPEGDecompression(maxPixelCount: maxPixelCount).readHeader(bytes)
        }) else { return nil }
        // Thumbnail boxes are in display orientation: width and height swap for EXIF 5–8.
        let swapped = header.orientation.swapsDimensions
        let width = swapped ? header.size.height : header.size.width
        let height = swapped ? header.size.width : header.size.height
        var cases: [(name: String, options: ImageDecodingOptions)] = []
        for divisor in [8, 4] {
            var options = ImageDecodingOptions(
                thumbnailPixelSize: PixelSize(width: max(1, width / divisor), height: max(1, height / divisor)),
                preserveAspectRatio: false, maxPixelCount: maxPixelCount)
            cases.append(("1/\(divisor) box", options))
            if divisor == 8 {
                options.draft = true
                cases.append(("1/8 draft", options))
            }
        }
        for (name, options) in cases {
            if let difference = difference(data, options: options) { return "\(name): \(difference)" }
        }
        return nil
    }

    /// How the skipping decode of `data` with `options` differs from the plain one, if it does.
    static func difference(_ data: Data, options: ImageDecodingOptions) -> String? {
        var dcOnlyArrays: Int?
        let skipping = Result {
            try JPEGDecoder.decode(data, options: options, leftOutScans: { dcOnlyArrays = $0 })
        }
        let plain = Result { try JPEGDecoder.decode(data, options: options, skippingUnusedScans: false) }
        let leftOut = try? data.withUnsafeBytes { bytes in
            let decompression = try JPEGDecompression(maxPixelCount: options.maxPixelCount)
            let (header, plan, components) = try JPEGDecoder.readPlan(bytes, options: options, decompression: decompression)
            return JPEGDecoder.withoutUnusedScans(bytes, header: header, plan: plan, dcOnlyComponents: components)
                .map { (stream: $0, components: components, scale: plan.scaleNumerator) }
        }
        switch (skipping, plain) {
        case (.success(let mine), .success(let theirs)):
            if let difference = imageDifference(mine, theirs) { return difference }
            if let leftOut, dcOnlyArrays != leftOut.components.count {
                return "scale \(leftOut.scale)/8 left scans out of components \(leftOut.components.sorted()) but stored "
                    + "\(dcOnlyArrays.map(String.init) ?? "no") DC-only arrays"
            }
            if leftOut == nil, dcOnlyArrays != nil { return "scans were left out where the filter leaves none out" }
            return nil
        case (.failure(let mine), .failure(let theirs)):
            let (a, b) = (code(of: mine), code(of: theirs))
            return a == b ? nil : "skipping fails with \(a), plain with \(b) (\(mine) / \(theirs))"
        case (.success, .failure(let theirs)):
            // The documented case: the damage is in scans the skipping decode never reads.
            guard let leftOut, code(of: theirs) == .badImageData else {
                return "skipping succeeds, plain fails with \(theirs)"
            }
            let alone = Result {
                try JPEGDecoder.decode(Data(leftOut.stream), options: options, skippingUnusedScans: false)
            }
            if case .failure(let error) = alone {
                return "skipping succeeds where plain fails (\(theirs)), yet the filtered stream fails plainly: \(error)"
            }
            return nil
        case (.failure(let mine), .success):
            return "skipping fails with \(mine), plain succeeds"
        }
    }

    /// The first property in which two decodes of one file differ.
    static func imageDifference(_ mine: Image, _ theirs: Image) -> String? {
        if mine.pixels.size != theirs.pixels.size { return "size \(mine.pixels.size) skipping, \(theirs.pixels.size) plain" }
        if mine.originalPixelSize != theirs.originalPixelSize {
            return "original size \(mine.originalPixelSize) skipping, \(theirs.originalPixelSize) plain"
        }
        if mine.orientation != theirs.orientation {
            return "orientation \(mine.orientation) skipping, \(theirs.orientation) plain"
        }
        let (a, b) = (mine.pixels.bytes, theirs.pixels.bytes)
        if let at = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return "pixel byte \(at) of \(mine.pixels.size) is \(a[at]) skipping, \(b[at]) plain"
        }
        return a.count == b.count ? nil : "\(a.count) pixel bytes skipping, \(b.count) plain"
    }

    private static func code(of error: any Error) -> WebImageError.Code {
        (error as? WebImageError)?.code ?? .decodingFailed
    }
}
