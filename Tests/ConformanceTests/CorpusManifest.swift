import Foundation
import Testing

/// The parts of the corpus manifest (`manifest.json`) that the conformance suite checks.
struct CorpusManifest: Decodable {
    let files: [Entry]

    struct Entry: Decodable {
        let file: String
        let format: String
        let width: Int?
        let height: Int?
        let frame_count: Int?
        let animated: Bool?
        let loop_count: Int?
        let lossy: Bool?
        let jpeg_process: String?
        let expected_validity: String
        let rgba8_sha256: String?
        let rgba8_zeroed_sha256: String?
        let rgba8_sha256_spec: String?
        let rgba8_zeroed_sha256_spec: String?
        let fallback_rgba8_sha256: String?
        let fallback_rgba8_zeroed_sha256: String?
        let fingerprint_8x8: [[Double]]?
        let exif_orientation: Int?
        let header: Header?
        let pillow: Pillow?
        let notes: [String]?

        struct Header: Decodable {
            let default_image_is_first_frame: Bool?
        }

        struct Pillow: Decodable {
            let frames: [Frame]?
            let mode: String?
            let icc_profile: Bool?
        }

        struct Frame: Decodable {
            let rgba8_sha256: String?
            let rgba8_zeroed_sha256: String?
            let duration_ms: Double?
        }
    }

    /// The corpus folder: `$WEBIMAGE_CORPUS`, else `../shared/corpus/public` beside the package.
    static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["WEBIMAGE_CORPUS"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/public")
    }

    /// The manifest's path in ``directory``.
    static var manifestURL: URL { directory.appendingPathComponent("manifest.json") }

    /// The manifest for a suite marked `.corpusAvailable`: nil, with an issue recorded, when the
    /// corpus is absent (only reached when WEBIMAGE_REQUIRE_CORPUS is set; otherwise the suite is
    /// skipped before it runs).
    static func required() throws -> CorpusManifest? {
        guard let manifest = try load() else {
            Issue.record("corpus absent at \(directory.path) and WEBIMAGE_REQUIRE_CORPUS is set")
            return nil
        }
        return manifest
    }

    static func load() throws -> CorpusManifest? {
        let url = manifestURL
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(CorpusManifest.self, from: Data(contentsOf: url))
    }
}
