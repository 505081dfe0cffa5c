import Foundation
import Testing
import WebImageCodecs
import WebImageFuzzing

@testable import WebImageJPEG

/// The `jpeg-scan-skip-differential` seeds reach the code the target is about: each one, decoded
/// at 1/8, leaves AC scans out and keeps DC-only coefficient arrays (`dc_store.c`), as many as
/// its layout has components whose blocks become one pixel.
@Suite struct JPEGScanSkipSeedTests {
    @Test func everySeedLeavesScansOutAndKeepsDCOnlyArrays() throws {
        // 4:2:0 keeps chroma's scans (2×2 pixels a block); 4:2:2, 4:4:4 and 4:4:0 leave out all three.
        let expected = [
            "yuv420-41x29.jpg": 1, "yuv420-exif6-36x20.jpg": 1, "yuv422-67x35.jpg": 3, "yuv444-48x40.jpg": 3,
            "yuv440-27x45.jpg": 3, "grey-53x31.jpg": 1, "restart-rows-75x19.jpg": 1,
            "restart-blocks-yuv444-33x17.jpg": 3, "scan-script-yuv444-40x24.jpg": 3,
        ]
        let seeds = try FuzzTarget.jpegScanSkipDifferential.seeds()
        #expect(Set(seeds.map(\.name)) == Set(expected.keys))
        for seed in seeds {
            let header = try JPEGCoder().readHeader(seed.data)
            // A square box fits the picture either way round (one seed has EXIF orientation 6).
            let side = max(1, min(header.pixelSize.width, header.pixelSize.height) / 8)
            let box = PixelSize(width: side, height: side)
            var arrays: [Int] = []
            _ = try JPEGDecoder.decode(
                seed.data, options: ImageDecodingOptions(thumbnailPixelSize: box), leftOutScans: { arrays.append($0) })
            #expect(arrays == [expected[seed.name] ?? -1], "\(seed.name)")
            #expect(JPEGScanSkipDifferential.firstDifference(in: seed.data) == nil, "\(seed.name)")
        }
    }
}
