import WebImageCodecs
import WebImagePNM

extension ImageCodersManager {
    /// The tool's coders: every standard one and the Netpbm maps (`.ppm`, `.pgm`, `.pam`, `.pnm`),
    /// the decode-only output `convert` writes like djpeg. `serve` keeps ``standard()``.
    static func tool() -> ImageCodersManager {
        let coders = standard()
        coders.addCoder(PNMCoder())
        return coders
    }
}
