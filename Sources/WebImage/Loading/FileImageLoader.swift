public import Foundation

/// Loads file:// URLs by streamed reads, reporting progress after each chunk.
///
/// A missing or unreadable file, or a directory, fails with ``WebImageError/Code/fileUnreadable`` (not blocked by
/// the standard policy: the file may appear later); a file over ``maximumBytes`` fails with
/// ``WebImageError/Code/tooLarge`` before it is read. The request's decryptor is applied to the
/// whole file (partial data is then not offered), as the HTTP loader does.
///
/// ```swift
/// let result = try await FileImageLoader().load(ImageLoad.Request(url: URL(fileURLWithPath: path))).result()
/// ```
public struct FileImageLoader: ImageLoading {
    /// Bytes per read.
    public var chunkSize: Int
    /// The largest file loaded.
    public var maximumBytes: Int
    /// Which failures block a URL.
    public var blockingPolicy: FailedURLBlockingPolicy

    /// A loader reading `chunkSize` bytes at a time, refusing files over `maximumBytes`.
    public init(
        chunkSize: Int = 64 * 1024, maximumBytes: Int = 100 * 1024 * 1024,
        blockingPolicy: FailedURLBlockingPolicy = .standard
    ) {
        self.chunkSize = max(1, chunkSize)
        self.maximumBytes = maximumBytes
        self.blockingPolicy = blockingPolicy
    }

    /// `"file"`.
    public var name: String { "file" }

    /// Whether `url` is a file URL.
    public func canLoad(_ url: URL) -> Bool { url.isFileURL }

    public func load(_ request: ImageLoad.Request) -> ImageLoad.Task {
        let chunkSize = chunkSize
        let maximumBytes = maximumBytes
        return .run { continuation in
            try Self.read(request, chunkSize: chunkSize, maximumBytes: maximumBytes, continuation: continuation)
        }
    }

    public func shouldBlockFailedURL(_ url: URL, error: any Error) -> Bool {
        blockingPolicy.shouldBlock(error)
    }

    private static func read(
        _ request: ImageLoad.Request, chunkSize: Int, maximumBytes: Int,
        continuation: AsyncThrowingStream<ImageLoad.Event, any Error>.Continuation
    ) throws -> ImageLoad.Result {
        let clock = ContinuousClock()
        let start = clock.now
        let url = request.url
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw WebImageError(.fileUnreadable, "\(url.path) is a directory, not a file")
        }
        let handle: FileHandle
        let size: Int
        do {
            handle = try FileHandle(forReadingFrom: url)
            size = Int(try handle.seekToEnd())
            try handle.seek(toOffset: 0)
        } catch {
            throw WebImageError(.fileUnreadable, "cannot open \(url.path)", underlying: error)
        }
        defer { try? handle.close() }
        guard size <= maximumBytes else {
            throw WebImageError(.tooLarge, "\(url.path) is \(size) bytes, over the limit of \(maximumBytes)")
        }
        let response = ImageLoad.Response(url: url, headers: ["Content-Length": String(size)])
        continuation.yield(.response(response))
        let firstByte = clock.now - start
        var data = Data()
        data.reserveCapacity(size)
        while true {
            try Task.checkCancellation()
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: chunkSize)
            } catch {
                throw WebImageError(.fileUnreadable, "cannot read \(url.path)", underlying: error)
            }
            guard let chunk, !chunk.isEmpty else { break }
            data.append(chunk)
            guard data.count <= maximumBytes else {
                throw WebImageError(.tooLarge, "\(url.path) grew over the limit of \(maximumBytes) bytes")
            }
            continuation.yield(.progress(ImageLoad.Progress(
                receivedBytes: data.count, expectedBytes: size,
                partialData: request.reportsPartialData && request.decryptor == nil ? data : nil)))
        }
        if data.isEmpty {
            continuation.yield(.progress(ImageLoad.Progress(receivedBytes: 0, expectedBytes: size)))
        }
        let receivedBytes = data.count
        if let decryptor = request.decryptor { data = try decryptor.apply(to: data, response: response) }
        return ImageLoad.Result(
            data: data, response: response,
            metrics: ImageLoad.Metrics(receivedBytes: receivedBytes, timeToFirstByte: firstByte, totalDuration: clock.now - start))
    }
}
