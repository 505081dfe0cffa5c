import CTIFFShim
import Foundation
import WebImage

/// One page's directory: size, orientation and layout, read without decoding pixels.
struct TIFFPageInfo {
    var size: PixelSize
    var orientation: ImageOrientation
    var hasAlpha: Bool
    /// Bits per sample as stored.
    var bitsPerSample: Int
    /// The ICC profile the decoded RGBA pixels are in: the `ICCProfile` tag's when it describes
    /// the page's colour model (an RGB profile on RGB, YCbCr or palette pages, a grey one on
    /// greyscale pages); nil otherwise.
    var colorProfile: ColorProfile?
    /// A CMYK page's CMYK profile, which its inks are converted through.
    var cmykProfile: ColorProfile?
    /// What the header reports: ``colorProfile``, or a CMYK page's ``cmykProfile``.
    var reportedProfile: ColorProfile? { colorProfile ?? cmykProfile }
}

/// A TIFF file open for reading from a private copy of its bytes (libtiff reads pages on demand,
/// so the bytes must live as long as the file).
///
/// Not thread-safe: ``TIFFPageSource`` guards it with a mutex.
final class TIFFFile {
    private let bytes: UnsafeMutableRawBufferPointer
    private let handle: OpaquePointer

    /// Opens `data` and reads its first directory; `maxPixelCount` bounds libtiff's own
    /// allocations (eight bytes a pixel: a whole 16-bit RGBA page in one strip).
    init(_ data: UnsafeRawBufferPointer, maxPixelCount: Int) throws {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        if let from = data.baseAddress, let to = copy.baseAddress { to.copyMemory(from: from, byteCount: data.count) }
        let (product, overflow) = max(0, maxPixelCount).multipliedReportingOverflow(by: 8)
        let allocationLimit = UInt64(max(64 << 20, overflow ? Int.max : product))
        var message = [CChar](repeating: 0, count: 512)
        guard
            let handle = webimage_tiff_open(
                UnsafeRawPointer(copy.baseAddress), data.count, allocationLimit, &message, message.count)
        else {
            copy.deallocate()
            throw WebImageError.badData("TIFF data is unreadable: \(String(nulTerminated: message))")
        }
        self.bytes = copy
        self.handle = handle
    }

    deinit {
        webimage_tiff_close(handle)
        bytes.deallocate()
    }

    /// libtiff's first error on this file.
    var message: String { String(cString: webimage_tiff_message(handle)) }

    /// The number of pages, counted from the directory chain, at most `limit`.
    func pageCount(limit: Int) -> Int {
        Int(webimage_tiff_page_count(handle, Int32(clamping: max(1, limit))))
    }

    /// Page `index`'s directory.
    func pageInfo(_ index: Int) throws -> TIFFPageInfo {
        var page = webimage_tiff_page()
        guard webimage_tiff_read_page_info(handle, Int32(clamping: index), &page) == 0 else {
            throw WebImageError.badData("TIFF page \(index) is unreadable: \(message)")
        }
        var profile: ColorProfile?
        var cmykProfile: ColorProfile?
        if let icc = page.icc, page.icc_length > 0, let parsed = ColorProfile(iccData: Data(bytes: icc, count: Int(page.icc_length))) {
            // Photometric 0 and 1 are grey; 2 RGB, 3 palette, 6 YCbCr are colour; 5 is separated (CMYK).
            switch page.photometric {
            case 0, 1: profile = parsed.colorSpace == .gray ? parsed : nil
            case 2, 3, 6: profile = parsed.colorSpace == .rgb ? parsed : nil
            case 5: cmykProfile = parsed.colorSpace == .cmyk ? parsed : nil
            default: profile = nil
            }
        }
        return TIFFPageInfo(
            size: PixelSize(width: Int(page.width), height: Int(page.height)),
            orientation: ImageOrientation(rawValue: Int(page.orientation)) ?? .up,
            hasAlpha: page.has_alpha != 0, bitsPerSample: Int(page.bits_per_sample), colorProfile: profile,
            cmykProfile: cmykProfile)
    }

    /// Decodes page `index` as stored (orientation not applied), after checking its size against
    /// `maxPixelCount`. The buffer is straight or premultiplied, as the file's layout gives it.
    ///
    /// An 8-bit CMYK page goes through `converter` (its CMYK profile, else the converter's
    /// standard one) when given; otherwise, or when the converter cannot, through libtiff's formula.
    func decodePage(_ index: Int, maxPixelCount: Int, converter: (any ColorConverting)? = nil) throws
        -> (info: TIFFPageInfo, pixels: PixelBuffer)
    {
        let info = try pageInfo(index)
        var premultiplied: Int32 = 0
        let pixels = try PixelBuffer(
            width: info.size.width, height: info.size.height, alphaMode: .straight, maxPixelCount: maxPixelCount
        ) { out in
            var cmyk: Int32 = 0
            guard webimage_tiff_decode_page(handle, out.baseAddress, out.count, &premultiplied, converter == nil ? 0 : 1, &cmyk) == 0
            else { throw WebImageError.badData("TIFF page \(index) is corrupt: \(message)") }
            guard cmyk != 0, converter?.convertCMYKToSRGB(out, profile: info.cmykProfile, inverted: false) != true else { return }
            // The converter could not: libtiff's formula, as without one.
            guard webimage_tiff_decode_page(handle, out.baseAddress, out.count, &premultiplied, 0, &cmyk) == 0 else {
                throw WebImageError.badData("TIFF page \(index) is corrupt: \(message)")
            }
        }
        var result = pixels
        result.alphaMode = premultiplied != 0 ? .premultiplied : .straight
        return (info, result)
    }
}

extension TIFFFile {
    /// Page `index` decoded from its 16-bit samples and converted to 8-bit sRGB by `transform`,
    /// strip by strip or row of tiles by row of tiles; nil when the page is not 16-bit RGB or grey
    /// (with no alpha or unassociated alpha, not JPEG-compressed), or when one band's samples
    /// would not fit `allowsWideBuffer` (pixels): the caller then takes the 8-bit path.
    func decodeWidePage(
        _ index: Int, maxPixelCount: Int, transform: any WideColorTransform, allowsWideBuffer: (Int) -> Bool
    ) throws -> PixelBuffer? {
        let info = try pageInfo(index)
        try PixelBuffer.checkSize(info.size, maxPixelCount: maxPixelCount)
        let bandRows = Int(webimage_tiff_wide_band_rows(handle))
        guard bandRows > 0, allowsWideBuffer(bandRows * info.size.width) else { return nil }
        return try PixelBuffer(width: info.size.width, height: info.size.height, bandRows: bandRows, transform: transform) {
            band, firstRow, rows in
            guard webimage_tiff_read_band16(handle, UInt32(firstRow), UInt32(rows), band.baseAddress) == 0 else {
                throw WebImageError.badData("TIFF page \(index) is corrupt: \(message)")
            }
        }
    }
}
