import Crypto
import Foundation
import WebImage

/// A watermark's encoded bytes and the digest that names them in result keys, so that a new
/// watermark file never answers with results drawn with the old one.
struct WatermarkImage: Sendable {
    /// The encoded image, decoded with each result that draws it (on the processing executor).
    var data: Data
    /// The first 16 bytes of the SHA-256 of ``data``, in hex.
    var digest: String

    /// `data` checked to be an image `coders` can decode; throws
    /// ``WebImage/WebImageError/Code/invalidServerConfiguration`` naming `origin` otherwise.
    init(checking data: Data, origin: String, coders: ImageCodersManager) throws {
        do {
            var options = ImageDecodingOptions()
            options.firstFrameOnly = true
            _ = try coders.decode(data, options: options)
        } catch {
            throw WebImageError(
                .invalidServerConfiguration,
                "the watermark \(origin) is not a readable image: \((error as? WebImageError)?.message ?? "\(error)")")
        }
        self.init(data: data)
    }

    /// `data` as it is (a per-request watermark, checked when a result draws it).
    init(data: Data) {
        self.data = data
        digest = SHA256.hash(data: data).prefix(16).hexString
    }
}
