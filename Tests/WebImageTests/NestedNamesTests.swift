import Foundation
import Testing
import WebImage

/// The types nested under their owners (issue 11 §6) keep their old top-level names as
/// deprecated aliases, so code written against those names still builds.
@Suite("Nested names and their deprecated aliases")
struct NestedNamesTests {
    @available(*, deprecated, message: "uses the deprecated names on purpose")
    @Test func everyOldNameIsTheNestedType() {
        #expect(ImagePipelineEvent.self == ImageManager.Event.self)
        #expect(PipelineTransformer.self == ChainedTransformer.self)
        #expect(ImageEncodingPipeline.self == ImageCodersManager.Encoding.self)
        #expect(ImageManagerConfiguration.self == ImageManager.Configuration.self)
        #expect(ImagePrefetchProgress.self == ImagePrefetcher.Progress.self)
        #expect(ImagePrefetchResult.self == ImagePrefetcher.Result.self)
        #expect(ImagePrefetchToken.self == ImagePrefetcher.Token.self)
        #expect(CacheQueryOptions.self == ImageCache.QueryOptions.self)
        #expect(CacheQueryResult.self == ImageCache.QueryResult.self)
        #expect(CacheItem.self == ImageCache.Item.self)
        #expect(DownloadFailureDetails.self == WebImageError.DownloadDetails.self)
        #expect(ImageRequestUserInfo.self == ImageRequest.UserInfo.self)
        #expect(ImageLoadRequest.self == ImageLoad.Request.self)
        #expect(ImageLoadResponse.self == ImageLoad.Response.self)
        #expect(ImageLoadEvent.self == ImageLoad.Event.self)
        #expect(ImageLoadResult.self == ImageLoad.Result.self)
        #expect(ImageLoadProgress.self == ImageLoad.Progress.self)
        #expect(ImageLoadMetrics.self == ImageLoad.Metrics.self)
        #expect(ImageLoadTask.self == ImageLoad.Task.self)
        #expect(ImageLoadOperation.self == ImageLoad.Operation.self)
        #expect(ImageLoadHeaders.self == ImageLoad.Headers.self)
        #expect(ImageLoadCredential.self == ImageLoad.Credential.self)
        #expect(ImageLoadURLRequest.self == ImageLoad.URLRequest.self)
        #expect(ImageLoadPriority.self == ImageLoad.Priority.self)
    }

    @available(*, deprecated, message: "uses the deprecated names on purpose")
    @Test func aKeyDeclaredAgainstTheOldProtocolNameWorksWithTheNewOne() {
        var info = ImageRequest.UserInfo()
        info[OldStyleKey.self] = "trace-1"
        #expect(info[OldStyleKey.self] == "trace-1")
        #expect(info[NewStyleKey.self] == 0)
    }
}

@available(*, deprecated, message: "declared against the deprecated protocol name on purpose")
private enum OldStyleKey: ImageRequestUserInfoKey { static let defaultValue = "" }

private enum NewStyleKey: ImageRequest.UserInfoKey { static let defaultValue = 0 }

/// A load handle nested in the namespace still runs its work in a Swift concurrency task (the
/// nested `ImageLoad.Task` must not capture the name `Task` inside its own body).
@Suite("ImageLoad namespace")
struct ImageLoadNamespaceTests {
    @Test func aRunTaskDeliversItsResult() async throws {
        let url = try #require(URL(string: "data:,x"))
        let response = ImageLoad.Response(url: url)
        let task = ImageLoad.Task.run { _ in
            ImageLoad.Result(
                data: Data([1, 2, 3]), response: response,
                metrics: ImageLoad.Metrics(receivedBytes: 3, timeToFirstByte: nil, totalDuration: .zero))
        }
        let result = try await task.result()
        #expect(result.data == Data([1, 2, 3]))
    }
}
