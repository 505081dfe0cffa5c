import Foundation

/// The load stage of a request whose source is a data provider (``ImageRequest/dataProvider``):
/// one call to the provider in place of a download. No loader, no fallbacks, no failed-URL list.
extension ImageManager {
    /// Asks `provider` for the original bytes, reported as `plan`'s `download` event, and returns
    /// them as a load result (the response names the provider's `webimage-provider:` URL). A
    /// foreign error becomes ``WebImageError/Code/dataProviderFailed``.
    func provideOriginal(_ plan: RequestPlan, from provider: any ImageDataProviding) async throws -> ImageLoad.Result {
        let start = ContinuousClock.now
        let data = try await timed(.download, plan, key: plan.originalKey) {
            do {
                return try await provider.data()
            } catch {
                throw WebImageError.wrapping(
                    error, code: .dataProviderFailed, "the data provider for \(plan.originalKey) failed")
            }
        }
        return ImageLoad.Result(
            data: data, response: ImageLoad.Response(url: plan.url),
            metrics: ImageLoad.Metrics(receivedBytes: data.count, timeToFirstByte: nil, totalDuration: ContinuousClock.now - start))
    }
}
