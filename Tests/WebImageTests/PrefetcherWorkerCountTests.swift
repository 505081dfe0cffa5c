import Testing

@testable import WebImage

@Suite("ImagePrefetcher's worker count")
struct PrefetcherWorkerCountTests {
    @Test("Never more loads at once than URLs, never more than the limit")
    func clamped() {
        #expect(ImagePrefetcher.workerCount(limit: .max, urlCount: 2) == 2)
        #expect(ImagePrefetcher.workerCount(limit: 3, urlCount: 10) == 3)
        #expect(ImagePrefetcher.workerCount(limit: 3, urlCount: 0) == 0)
        #expect(ImagePrefetcher.workerCount(limit: 256, urlCount: 256) == 256)
    }
}
