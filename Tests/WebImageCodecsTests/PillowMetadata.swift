import Foundation

/// Pillow's reading of an encoded file's metadata, an independent check of what our encoders
/// write (nil when python3 or Pillow is absent, or Pillow cannot open the format).
struct PillowMetadata: Decodable {
    /// The size after Pillow's `ImageOps.exif_transpose`: what a viewer honouring EXIF shows.
    var displayedWidth: Int
    var displayedHeight: Int
    /// EXIF tag 274, if any.
    var orientation: Int?
    /// EXIF tag 33432, if any.
    var copyright: String?
    /// Whether the GPS directory has entries.
    var gps: Bool
    /// Whether the XMP packet mentions `GPS`; nil without XMP.
    var xmpMentionsGPS: Bool?

    static func read(_ data: Data) -> PillowMetadata? {
        guard let python = ExternalDecoder.find("python3") else { return nil }
        let script = """
            import sys, io, json
            try:
                from PIL import Image, ImageOps
            except ImportError:
                sys.exit(3)
            im = Image.open(io.BytesIO(sys.stdin.buffer.read()))
            exif = im.getexif()
            xmp = im.info.get("xmp") or im.info.get("XML:com.adobe.xmp")
            if xmp is None and hasattr(im, "tag_v2"):
                xmp = im.tag_v2.get(700)
            if isinstance(xmp, str):
                xmp = xmp.encode()
            copyright = exif.get(33432)
            shown = ImageOps.exif_transpose(im)
            print(json.dumps({
                "displayedWidth": shown.width, "displayedHeight": shown.height,
                "orientation": exif.get(274),
                "copyright": copyright.rstrip("\\x00") if isinstance(copyright, str) else None,
                "gps": len(exif.get_ifd(0x8825)) > 0,
                "xmpMentionsGPS": (b"GPS" in bytes(xmp)) if xmp is not None else None,
            }))
            """
        guard let output = ExternalDecoder.run(python, ["-c", script], input: data) else { return nil }
        return try? JSONDecoder().decode(PillowMetadata.self, from: output)
    }
}
