// The names before issue 11 §6 nested each type under its owner. Kept so code written against
// them still builds; each one warns and offers a fix-it to the new name.

/// Renamed to ``ImageManager/Event``.
@available(*, deprecated, renamed: "ImageManager.Event")
public typealias ImagePipelineEvent = ImageManager.Event

/// Renamed to ``ChainedTransformer``.
@available(*, deprecated, renamed: "ChainedTransformer")
public typealias PipelineTransformer = ChainedTransformer

/// Renamed to ``ImageCodersManager/Encoding``.
@available(*, deprecated, renamed: "ImageCodersManager.Encoding")
public typealias ImageEncodingPipeline = ImageCodersManager.Encoding

/// Renamed to ``ImageManager/Configuration``.
@available(*, deprecated, renamed: "ImageManager.Configuration")
public typealias ImageManagerConfiguration = ImageManager.Configuration

/// Renamed to ``ImagePrefetcher/Progress``.
@available(*, deprecated, renamed: "ImagePrefetcher.Progress")
public typealias ImagePrefetchProgress = ImagePrefetcher.Progress

/// Renamed to ``ImagePrefetcher/Result``.
@available(*, deprecated, renamed: "ImagePrefetcher.Result")
public typealias ImagePrefetchResult = ImagePrefetcher.Result

/// Renamed to ``ImagePrefetcher/Token``.
@available(*, deprecated, renamed: "ImagePrefetcher.Token")
public typealias ImagePrefetchToken = ImagePrefetcher.Token

/// Renamed to ``ImageCache/QueryOptions``.
@available(*, deprecated, renamed: "ImageCache.QueryOptions")
public typealias CacheQueryOptions = ImageCache.QueryOptions

/// Renamed to ``ImageCache/QueryResult``.
@available(*, deprecated, renamed: "ImageCache.QueryResult")
public typealias CacheQueryResult = ImageCache.QueryResult

/// Renamed to ``ImageCache/Item``.
@available(*, deprecated, renamed: "ImageCache.Item")
public typealias CacheItem = ImageCache.Item

/// Renamed to ``WebImageError/DownloadDetails``.
@available(*, deprecated, renamed: "WebImageError.DownloadDetails")
public typealias DownloadFailureDetails = WebImageError.DownloadDetails

/// Renamed to ``ImageRequest/UserInfo``.
@available(*, deprecated, renamed: "ImageRequest.UserInfo")
public typealias ImageRequestUserInfo = ImageRequest.UserInfo

/// Renamed to ``ImageRequest/UserInfoKey``.
@available(*, deprecated, renamed: "ImageRequest.UserInfoKey")
public typealias ImageRequestUserInfoKey = ImageRequest.UserInfoKey

/// Renamed to ``ImageLoad/Request``.
@available(*, deprecated, renamed: "ImageLoad.Request")
public typealias ImageLoadRequest = ImageLoad.Request

/// Renamed to ``ImageLoad/Response``.
@available(*, deprecated, renamed: "ImageLoad.Response")
public typealias ImageLoadResponse = ImageLoad.Response

/// Renamed to ``ImageLoad/Event``.
@available(*, deprecated, renamed: "ImageLoad.Event")
public typealias ImageLoadEvent = ImageLoad.Event

/// Renamed to ``ImageLoad/Result``.
@available(*, deprecated, renamed: "ImageLoad.Result")
public typealias ImageLoadResult = ImageLoad.Result

/// Renamed to ``ImageLoad/Progress``.
@available(*, deprecated, renamed: "ImageLoad.Progress")
public typealias ImageLoadProgress = ImageLoad.Progress

/// Renamed to ``ImageLoad/Metrics``.
@available(*, deprecated, renamed: "ImageLoad.Metrics")
public typealias ImageLoadMetrics = ImageLoad.Metrics

/// Renamed to ``ImageLoad/Task``.
@available(*, deprecated, renamed: "ImageLoad.Task")
public typealias ImageLoadTask = ImageLoad.Task

/// Renamed to ``ImageLoad/Operation``.
@available(*, deprecated, renamed: "ImageLoad.Operation")
public typealias ImageLoadOperation = ImageLoad.Operation

/// Renamed to ``ImageLoad/Headers``.
@available(*, deprecated, renamed: "ImageLoad.Headers")
public typealias ImageLoadHeaders = ImageLoad.Headers

/// Renamed to ``ImageLoad/Credential``.
@available(*, deprecated, renamed: "ImageLoad.Credential")
public typealias ImageLoadCredential = ImageLoad.Credential

/// Renamed to ``ImageLoad/URLRequest``.
@available(*, deprecated, renamed: "ImageLoad.URLRequest")
public typealias ImageLoadURLRequest = ImageLoad.URLRequest

/// Renamed to ``ImageLoad/Priority``.
@available(*, deprecated, renamed: "ImageLoad.Priority")
public typealias ImageLoadPriority = ImageLoad.Priority

// The caching API before it was split into a memory side and a data side.

/// The composite cache's former name.
@available(*, deprecated, renamed: "ImageCache")
public typealias TieredCache = ImageCache

/// The former name of ``ImageCache/Policy``.
@available(*, deprecated, renamed: "ImageCache.Policy")
public typealias TieredCachePolicy = ImageCache.Policy

/// The former name of ``ImageCache/Policies``.
@available(*, deprecated, renamed: "ImageCache.Policies")
public typealias TieredCachePolicies = ImageCache.Policies

/// Revalidation recording is part of the data side now: every ``ImageDataCaching`` tier records a
/// 304, and ``ImageCache/recordRevalidation(forKey:http:)`` forwards to each.
@available(*, deprecated, renamed: "ImageDataCaching")
public typealias CacheRevalidationRecording = ImageDataCaching

/// The single cache protocol was split: a memory tier adopts ``ImageMemoryCaching``, a data tier
/// ``ImageDataCaching``, and ``ImageCache`` composes them (where `any ImageCaching` was used).
@available(*, unavailable, renamed: "ImageCache", message: "adopt ImageMemoryCaching or ImageDataCaching; compose tiers in an ImageCache")
public typealias ImageCaching = ImageCache
