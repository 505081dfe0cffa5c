/// The namespace of one load by an ``ImageLoading`` loader: what it is asked
/// (``ImageLoad/Request``), what it streams (``ImageLoad/Event``, ``ImageLoad/Progress``), what it
/// ends with (``ImageLoad/Result``, ``ImageLoad/Response``, ``ImageLoad/Metrics``) and the handles
/// on it (``ImageLoad/Task``, ``ImageLoad/Operation``).
///
/// ```swift
/// let request = ImageLoad.Request(url: url, priority: .high)
/// for try await event in loader.load(request).events {
///     if case .progress(let progress) = event { print(progress.fractionCompleted ?? 0) }
///     if case .finished(let result) = event { print(result.response.statusCode ?? 0) }
/// }
/// ```
public enum ImageLoad {}
