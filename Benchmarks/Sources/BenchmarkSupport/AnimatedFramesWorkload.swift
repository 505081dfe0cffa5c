public import Foundation
import WebImageCodecs

/// Decoding every frame of the public corpus's valid animated GIFs and WebPs, as the manifest
/// lists them: the workload `animated-compare.sh` runs beside Pillow and pyvips.
public struct AnimatedFramesWorkload: Sendable {
    /// The files' bytes, in manifest order.
    public let files: [(name: String, data: Data)]

    /// Reads `manifest.json` in `corpus` and loads every valid animated GIF and WebP.
    public init(corpus: URL) throws {
        let manifest = try Data(contentsOf: corpus.appendingPathComponent("manifest.json"))
        guard let root = try JSONSerialization.jsonObject(with: manifest) as? [String: Any],
            let entries = root["files"] as? [[String: Any]]
        else { throw CocoaError(.fileReadCorruptFile) }
        files = try entries.compactMap { entry in
            guard let format = entry["format"] as? String, format == "gif" || format == "webp",
                entry["animated"] as? Bool == true, entry["expected_validity"] as? String == "valid",
                let path = entry["file"] as? String
            else { return nil }
            return (path, try Data(contentsOf: corpus.appendingPathComponent(path)))
        }
    }

    /// Decodes every frame of every file in order (one thread); returns the number of frames.
    @discardableResult
    public func run() throws -> Int {
        var frames = 0
        var checksum = 0
        for file in files {
            let image = try Self.coders.decode(file.data)
            guard let animation = image.animation else {
                frames += 1
                continue
            }
            for index in 0..<animation.frameCount {
                let frame = try animation.frame(at: index)
                checksum &+= Int(frame.pixels.bytes[frame.pixels.bytes.count / 2])
                frames += 1
            }
        }
        return frames + (checksum & 0)
    }

    static let coders = ImageCodersManager.standard()
}
