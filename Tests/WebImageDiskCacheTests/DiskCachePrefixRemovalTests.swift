import Foundation
import Testing
import WebImage
import WebImageDiskCache

@Suite("DiskCache: removing by key prefix and by original URL")
struct DiskCachePrefixRemovalTests {
    @Test func removesByPrefixAndByOriginalURLCountingWhatWent() async throws {
        let root = TemporaryDirectory()
        let cache = try DiskCache(configuration: .testing(root.url))
        let url = URL(string: "https://example.com/a.png")!
        for key in ["result:https://example.com/a.png|rs:1", "result:https://example.com/a.png|rs:2", "result:https://example.com/a.png2|rs:1"] {
            try await cache.setData(Data(key.utf8), forKey: key)
        }
        // Characters LIKE would treat as patterns are plain text here.
        try await cache.setData(Data([1]), forKey: "result:%_|x")
        #expect(try await cache.removeData(keysWithPrefix: "result:https://example.com/a.png|") == 2)
        #expect(try await cache.removeData(keysWithPrefix: "result:%_|") == 1)
        #expect(try await cache.removeData(keysWithPrefix: "nothing") == 0)
        #expect(try await cache.removeData(keysWithPrefix: "") == 0, "an empty prefix removes nothing")
        #expect(try await cache.count() == 1)

        try await cache.setData(Data([2]), forKey: url.absoluteString, metadata: CacheEntryMetadata(originalURL: URL(string: "https://cdn.example.com/a.png")))
        try await cache.setData(Data([3]), forKey: url.absoluteString + "-Thumbnail", metadata: CacheEntryMetadata(originalURL: url))
        try await cache.setData(Data([4]), forKey: "https://example.com/b.png", metadata: CacheEntryMetadata(originalURL: URL(string: "https://example.com/b.png")))
        #expect(try await cache.removeData(forKey: url.absoluteString, orOriginalURL: url) == 2)
        #expect(try await cache.containsData(forKey: "https://example.com/b.png"))
        #expect(try await cache.count() == 2)
        let dataFiles = try FileManager.default.contentsOfDirectory(atPath: root.url.appendingPathComponent("data").path)
        #expect(dataFiles.count == 2, "the removed entries' files went too")
    }
}
