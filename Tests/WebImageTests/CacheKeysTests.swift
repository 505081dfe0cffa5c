import Foundation
import Testing
import WebImage

@Suite("Cache keys")
struct CacheKeysTests {
    @Test("Transformer keys go before the extension, keeping query strings", arguments: [
        ("https://x.com/a/b.png", "T", "https://x.com/a/b-T.png"),
        ("https://x.com/a/b.png?v=2#f", "T", "https://x.com/a/b-T.png?v=2#f"),
        ("https://x.com/a/b", "T", "https://x.com/a/b-T"),
        ("https://x.com/", "T", "https://x.com/-T"),
        ("/tmp/photo.jpg", "T", "/tmp/photo-T.jpg"),
        ("plain-key", "T", "plain-key-T"),
        ("https://x.com/a.png", "Resize(10x10,fill)", "https://x.com/a-Resize(10x10,fill).png"),
    ])
    func transformed(key: String, transformer: String, expected: String) {
        #expect(CacheKeys.transformed(key, transformerKey: transformer) == expected)
    }

    @Test("Thumbnail size and aspect flag are part of the key")
    func thumbnails() {
        let a = CacheKeys.thumbnailed("https://x.com/a.jpg", size: PixelSize(width: 100, height: 100), preserveAspectRatio: true)
        let b = CacheKeys.thumbnailed("https://x.com/a.jpg", size: PixelSize(width: 100, height: 100), preserveAspectRatio: false)
        let c = CacheKeys.thumbnailed("https://x.com/a.jpg", size: PixelSize(width: 200, height: 100), preserveAspectRatio: true)
        #expect(Set([a, b, c]).count == 3)
        #expect(a.hasSuffix(".jpg"))
    }

    @Test("A key filter replaces the absolute string; nil means do not cache")
    func filter() throws {
        let url = try #require(URL(string: "https://x.com/a.png?token=secret"))
        #expect(CacheKeys.key(for: url) == "https://x.com/a.png?token=secret")
        let stripped = CacheKeys.key(for: url) { url in
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.query = nil
            return components?.string
        }
        #expect(stripped == "https://x.com/a.png")
        #expect(CacheKeys.key(for: url) { _ in nil } == nil)
    }
}
