import Foundation
import WebImage

extension HTTPImageLoader {
    /// Keeps what download `id` received, when its response can be resumed
    /// (``ResumableData``) and the request is not a revalidation.
    func keepResumableData(of id: Int, request: ImageLoad.Request) {
        guard let store = resumableData, request.revalidation == nil else { return }
        let partial = state.withLock { state -> ResumableData? in
            guard let flow = state.flows[id], let response = flow.response else { return nil }
            return ResumableData(data: flow.data, response: response)
        }
        if let partial { store.keep(partial, for: request.url) }
    }

    /// The kept bytes of `request`'s URL, taken out of the store, unless the request revalidates.
    func takeResumableData(for request: ImageLoad.Request) -> ResumableData? {
        guard request.revalidation == nil else { return nil }
        return resumableData?.take(for: request.url)
    }
}
