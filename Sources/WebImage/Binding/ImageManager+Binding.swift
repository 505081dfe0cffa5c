public import Foundation

extension ImageManager {
    /// Loads `request` into `target`'s slot `key` with SDWebImage's view rules
    /// (`sd_setImageWithURL:placeholderImage:options:progress:completed:`):
    ///
    /// - A new load for a key cancels the one running for it: its result is never shown and its
    ///   completion gets ``WebImageError/Code/cancelled``. The same request again while it loads
    ///   joins the running load instead (one download, both completions called).
    /// - A memory hit is set synchronously, before this returns, without the placeholder and
    ///   without the transition (unless ``ImageBinder/Options/forceTransition``).
    /// - Otherwise the placeholder (nil clears the slot) is set at once, or only if the load fails
    ///   with ``ImageBinder/Options/delayPlaceholder``; the target's indicator runs until the load
    ///   ends and gets the download's fraction.
    /// - The image that arrives is set with `transition` (it came from disk or the network),
    ///   unless ``ImageBinder/Options/avoidAutoSetImage``.
    /// - When the load fails (not when it is cancelled), `failureImage` is set with `transition`
    ///   (Kingfisher's `onFailureImage`, Nuke's `failureImage`), in place of a delayed placeholder;
    ///   with ``ImageBinder/Options/avoidAutoSetImage`` it is not set. The completion gets the
    ///   error either way.
    /// - ``ImageTarget/imageURL(for:)`` is the request's URL from the start.
    /// - When the target goes, its loads are cancelled.
    ///
    /// Everything happens on the main actor: the target's calls, `progress` and `completion`
    /// (once per response: twice for `refreshCached`; once with the error otherwise).
    ///
    /// ```swift
    /// manager.load(ImageRequest(url: url), into: cell, placeholder: grey, failureImage: broken, transition: .fade()) { result in
    ///     if case .failure(let error) = result { log(error) }
    /// }
    /// ```
    ///
    /// - Returns: the task behind the load (shared by the calls that joined it), or nil when the
    ///   load ended before returning (memory hit, no URL).
    @MainActor
    @discardableResult
    public func load(
        _ request: ImageRequest, into target: any ImageTarget, key: ImageBinder.Key = .image,
        placeholder: Image? = nil, failureImage: Image? = nil, options: ImageBinder.Options = [],
        transition: ImageTransition? = nil,
        progress: (@MainActor (ImageLoad.Progress) -> Void)? = nil,
        completion: @escaping @MainActor (Result<ImageResponse, any Error>) -> Void
    ) -> ImageTask? {
        let binder = target.imageBinder
        let resultKey = cacheKey(for: request)
        if let url = request.url, let running = binder.operation(for: key), running.url == url,
            running.resultKey == resultKey, running.isActive
        {
            running.placeholder = placeholder
            running.failureImage = failureImage
            running.options = options
            running.transition = transition
            running.add(progress: progress, completion: completion)
            return running.task
        }
        binder.cancel(key)
        binder.setURL(request.url, for: key)
        if let hit = cachedImage(for: request) {
            if !options.contains(.avoidAutoSetImage) {
                target.setImage(hit.image, for: key, transition: options.contains(.forceTransition) ? transition : nil)
            }
            completion(.success(hit))
            return nil
        }
        // Set at once, or on failure only (the no-URL failure below, or the task's).
        if !options.contains(.delayPlaceholder) { target.setImage(placeholder, for: key, transition: nil) }
        guard let url = request.url else {
            if !options.contains(.avoidAutoSetImage), let failureImage {
                target.setImage(failureImage, for: key, transition: nil)
            } else if options.contains(.delayPlaceholder) {
                target.setImage(placeholder, for: key, transition: nil)
            }
            completion(.failure(WebImageError(.invalidURL, "no URL to load into \(key)")))
            return nil
        }
        target.imageIndicator?.startAnimatingIndicator()
        let operation = BindingOperation(
            key: key, url: url, resultKey: resultKey, task: task(for: request), target: target,
            placeholder: placeholder, failureImage: failureImage, options: options, transition: transition)
        operation.add(progress: progress, completion: completion)
        binder.begin(operation, for: key)
        operation.start()
        return operation.task
    }

    /// Loads the image at `url` into `target`: ``load(_:into:key:placeholder:failureImage:options:transition:progress:completion:)``
    /// with a plain request (nil, or a URL no loader takes, fails with ``WebImageError/Code/invalidURL``).
    ///
    /// ```swift
    /// manager.load(url, into: imageView, placeholder: grey)
    /// ```
    @MainActor
    @discardableResult
    public func load(
        _ url: URL?, into target: any ImageTarget, key: ImageBinder.Key = .image,
        placeholder: Image? = nil, failureImage: Image? = nil, options: ImageBinder.Options = [],
        transition: ImageTransition? = nil,
        progress: (@MainActor (ImageLoad.Progress) -> Void)? = nil,
        completion: @escaping @MainActor (Result<ImageResponse, any Error>) -> Void
    ) -> ImageTask? {
        load(
            ImageRequest(url: url), into: target, key: key, placeholder: placeholder, failureImage: failureImage,
            options: options, transition: transition, progress: progress, completion: completion)
    }

    /// ``load(_:into:key:placeholder:failureImage:options:transition:progress:completion:)-(ImageRequest,_,_,_,_,_,_,_,_)``
    /// without handlers: the target shows what comes.
    ///
    /// ```swift
    /// manager.load(request, into: imageView, placeholder: grey)
    /// ```
    @MainActor
    @discardableResult
    public func load(
        _ request: ImageRequest, into target: any ImageTarget, key: ImageBinder.Key = .image,
        placeholder: Image? = nil, failureImage: Image? = nil, options: ImageBinder.Options = [],
        transition: ImageTransition? = nil
    ) -> ImageTask? {
        load(
            request, into: target, key: key, placeholder: placeholder, failureImage: failureImage, options: options,
            transition: transition, progress: nil, completion: { _ in })
    }

    /// The image at `url` into `target`, without handlers.
    ///
    /// ```swift
    /// manager.load(url, into: imageView, placeholder: grey, transition: .fade())
    /// ```
    @MainActor
    @discardableResult
    public func load(
        _ url: URL?, into target: any ImageTarget, key: ImageBinder.Key = .image,
        placeholder: Image? = nil, failureImage: Image? = nil, options: ImageBinder.Options = [],
        transition: ImageTransition? = nil
    ) -> ImageTask? {
        load(
            ImageRequest(url: url), into: target, key: key, placeholder: placeholder, failureImage: failureImage,
            options: options, transition: transition)
    }
}
