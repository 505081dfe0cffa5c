import Foundation
import Testing
import WebImageKit
import WebImageTesting

@testable import WebImageServer

/// `mb:BYTES` (`max_bytes`) over a live socket: lossy outputs fit by lower quality first, then a
/// smaller size; lossless outputs ignore it; an impossible budget gets the smallest encode.
@Suite("Service: byte budgets", .serialized)
struct MaxBytesTests {
    /// An 800×600 noisy JPEG: it does not compress to nothing at low quality.
    static let noisy: Data = {
        var generator = SystemRandomNumberGenerator()
        let gradient = ImageFixtures.gradient(width: 800, height: 600)
        var bytes = gradient.bytes
        for index in stride(from: 0, to: bytes.count, by: 4) {
            for channel in 0..<3 { bytes[index + channel] &+= UInt8.random(in: 0...40, using: &generator) }
            bytes[index + 3] = 255
        }
        let pixels = PixelBuffer(width: 800, height: 600, alphaMode: gradient.alphaMode, bytes: bytes)
        return try! Fixtures.coders.encode(Image(pixels: pixels, format: .jpeg), as: .jpeg, options: ImageEncodingOptions(quality: 0.95))
    }()

    @Test("a lossy result fits the budget at the same size by a lower quality (JPEG, WebP)")
    func qualityGoesDown() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/noisy.jpg", response: .ok(Self.noisy, contentType: "image/jpeg"))
            for ext in ["jpg", "webp"] {
                let full = try await harness.image("", "/noisy.jpg", ext: ext)
                #expect(full.status == 200)
                let budget = full.body.count * 6 / 10
                let fitted = try await harness.image("mb:\(budget)", "/noisy.jpg", ext: ext)
                #expect(fitted.status == 200, "\(ext): \(fitted.text)")
                #expect(fitted.body.count <= budget, "\(ext): \(fitted.body.count) > \(budget)")
                // Same pixels size: the quality, not the size, went down.
                #expect(try Fixtures.header(fitted.body).pixelSize == PixelSize(width: 800, height: 600), "\(ext)")
                #expect(fitted.header("ETag") != full.header("ETag"))
                // max_bytes is the alias; a budget the result already meets changes nothing.
                let roomy = try await harness.image("max_bytes:\(full.body.count * 2)", "/noisy.jpg", ext: ext)
                #expect(roomy.body == full.body, "\(ext)")
            }
        }
    }

    @Test("a budget the floor quality misses shrinks the image; an impossible one gets the smallest encode, not an error")
    func shrinksThenSmallest() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/noisy.jpg", response: .ok(Self.noisy, contentType: "image/jpeg"))
            let floor = try await harness.image("q:10", "/noisy.jpg", ext: "jpg")
            let budget = floor.body.count / 2
            let shrunk = try await harness.image("mb:\(budget)", "/noisy.jpg", ext: "jpg")
            #expect(shrunk.status == 200)
            #expect(shrunk.body.count <= budget)
            let size = try Fixtures.header(shrunk.body).pixelSize
            #expect(size.width < 800 && size.height < 600, "\(size)")
            #expect(abs(Double(size.width) / Double(size.height) - 800.0 / 600.0) < 0.1, "\(size)")

            // 100 bytes cannot hold a JPEG: the answer is the smallest the search made (shorter
            // side just over 16), over the budget but 200.
            let impossible = try await harness.image("mb:100", "/noisy.jpg", ext: "jpg")
            #expect(impossible.status == 200, "\(impossible.text)")
            #expect(impossible.body.count > 100)
            let smallest = try Fixtures.header(impossible.body).pixelSize
            #expect((16..<22).contains(min(smallest.width, smallest.height)), "\(smallest)")
            #expect(impossible.body.count < shrunk.body.count)
        }
    }

    @Test("lossless outputs ignore mb: (PNG answers its usual bytes); mb:0 is no budget; a bad value is 400")
    func losslessIgnores() async throws {
        try await ServiceHarness.with { (harness) async throws in
            harness.origin.route("/noisy.jpg", response: .ok(Self.noisy, contentType: "image/jpeg"))
            let png = try await harness.image("rs:fit:200:200", "/noisy.jpg", ext: "png")
            let budgeted = try await harness.image("rs:fit:200:200/mb:1000", "/noisy.jpg", ext: "png")
            #expect(png.status == 200 && budgeted.status == 200)
            #expect(budgeted.body == png.body)
            #expect(budgeted.body.count > 1000)
            let none = try await harness.image("rs:fit:200:200/mb:0", "/noisy.jpg", ext: "jpg")
            let plain = try await harness.image("rs:fit:200:200", "/noisy.jpg", ext: "jpg")
            #expect(none.header("ETag") == plain.header("ETag"))
            for bad in ["mb:-1", "mb:x", "mb"] {
                #expect(try await harness.image(bad, "/noisy.jpg", ext: "jpg").status == 400, "\(bad)")
            }
        }
    }
}
