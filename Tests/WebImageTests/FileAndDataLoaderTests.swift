import Foundation
import Testing
import WebImage

@Suite("file:// and data: loaders, and the loaders manager", .timeLimit(.minutes(3)))
struct FileAndDataLoaderTests {
    static func bytes(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    }

    /// A temporary directory removed after `body`.
    static func withTemporaryFile<T>(_ data: Data, _ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webimage-loading-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("image.bin")
        try data.write(to: file)
        return try await body(file)
    }

    static func collect(_ task: ImageLoad.Task) async throws -> (events: [ImageLoad.Event], result: ImageLoad.Result?) {
        var events: [ImageLoad.Event] = []
        var result: ImageLoad.Result?
        for try await event in task.events {
            events.append(event)
            if case .finished(let finished) = event { result = finished }
        }
        return (events, result)
    }

    static func progress(_ events: [ImageLoad.Event]) -> [ImageLoad.Progress] {
        events.compactMap { if case .progress(let p) = $0 { p } else { nil } }
    }

    @Test func fileLoaderStreamsChunksWithProgressThenTheWholeFile() async throws {
        let data = Self.bytes(200_000)
        try await Self.withTemporaryFile(data) { file in
            var request = ImageLoad.Request(url: file)
            request.reportsPartialData = true
            let (events, result) = try await Self.collect(FileImageLoader(chunkSize: 65_536).load(request))
            let progress = Self.progress(events)
            #expect(progress.map(\.receivedBytes) == [65_536, 131_072, 196_608, 200_000])
            #expect(progress.allSatisfy { $0.expectedBytes == 200_000 })
            #expect(progress.allSatisfy { $0.partialData == data.prefix($0.receivedBytes) })
            #expect(result?.data == data)
            #expect(result?.response.expectedContentLength == 200_000)
            #expect(result?.metrics.receivedBytes == 200_000)
        }
    }

    @Test func missingFileIsUnreadableAndNotBlocked() async throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/a.png")
        let loader = FileImageLoader()
        do {
            _ = try await loader.load(ImageLoad.Request(url: url)).result()
            Issue.record("a missing file loaded")
        } catch let error as WebImageError {
            #expect(error.code == .fileUnreadable)
            #expect(!loader.shouldBlockFailedURL(url, error: error))
        }
    }

    @Test func directoryIsUnreadableAndSaysSo() async throws {
        try await Self.withTemporaryFile(Self.bytes(10)) { file in
            let directory = file.deletingLastPathComponent()
            let error = await #expect(throws: WebImageError.self) {
                _ = try await FileImageLoader().load(ImageLoad.Request(url: directory)).result()
            }
            #expect(error?.code == .fileUnreadable)
            #expect(error?.message.contains("is a directory") == true, "\(String(describing: error))")
        }
    }

    @Test func fileOverTheLimitIsTooLargeBeforeReading() async throws {
        try await Self.withTemporaryFile(Self.bytes(5_000)) { file in
            let loader = FileImageLoader(maximumBytes: 4_999)
            await #expect(throws: WebImageError.self) { _ = try await loader.load(ImageLoad.Request(url: file)).result() }
            do {
                _ = try await loader.load(ImageLoad.Request(url: file)).result()
            } catch let error as WebImageError {
                #expect(error.code == .tooLarge)
            }
        }
    }

    @Test func cancellingAFileLoadEndsItsEventsWithCancelled() async throws {
        try await Self.withTemporaryFile(Self.bytes(1_000)) { file in
            let task = FileImageLoader().load(ImageLoad.Request(url: file))
            task.cancel()
            do {
                _ = try await task.result()
                Issue.record("a cancelled load finished")
            } catch let error as WebImageError {
                #expect(error.code == .cancelled)
            }
        }
    }

    @Test func dataLoaderDecodesBase64() async throws {
        let payload = Self.bytes(300)
        let url = URL(string: "data:image/png;base64,\(payload.base64EncodedString())")!
        let (events, result) = try await Self.collect(DataURLImageLoader().load(ImageLoad.Request(url: url)))
        #expect(result?.data == payload)
        #expect(result?.response.mimeType == "image/png")
        #expect(Self.progress(events).last?.receivedBytes == 300)
    }

    @Test func dataLoaderDecodesPercentEncodingAndDefaultsTheMediaType() async throws {
        let svg = URL(string: "data:image/svg+xml,%3Csvg%20xmlns='x'%2F%3E")!
        #expect(try await DataURLImageLoader().load(ImageLoad.Request(url: svg)).result().data == Data("<svg xmlns='x'/>".utf8))
        let plain = try DataURLImageLoader.decode(URL(string: "data:,a%2Cb")!)
        #expect(plain.mediaType == "text/plain;charset=US-ASCII")
        #expect(plain.data == Data("a,b".utf8))
    }

    @Test func malformedDataURLIsAnInvalidURLAndBlocked() async throws {
        let loader = DataURLImageLoader()
        for text in ["data:image/png;base64,@@@@", "data:image/png;base64,QUJD%2", "data:image/png;base64"] {
            let url = URL(string: text)!
            do {
                _ = try await loader.load(ImageLoad.Request(url: url)).result()
                Issue.record("\(text) loaded")
            } catch let error as WebImageError {
                #expect(error.code == .invalidURL)
                #expect(loader.shouldBlockFailedURL(url, error: error))
            }
        }
    }

    @Test func managerAsksLoadersInReverseOrderOfRegistration() async throws {
        try await Self.withTemporaryFile(Self.bytes(1_000)) { file in
            let strict = FileImageLoader(maximumBytes: 10)
            let manager = ImageLoadersManager(loaders: [FileImageLoader(), strict])
            // The strict loader was registered last, so it answers and refuses the file.
            do {
                _ = try await manager.load(ImageLoad.Request(url: file)).result()
                Issue.record("the first-registered loader answered")
            } catch let error as WebImageError {
                #expect(error.code == .tooLarge)
            }
            manager.addLoader(FileImageLoader())
            #expect(try await manager.load(ImageLoad.Request(url: file)).result().data.count == 1_000)
            #expect(manager.loaders.count == 3)
        }
    }

    @Test func managerRoutesBySchemeAndFailsUnknownSchemes() async throws {
        let manager = ImageLoadersManager.fileAndData()
        #expect(manager.canLoad(URL(string: "data:,x")!))
        #expect(manager.canLoad(URL(fileURLWithPath: "/tmp/x")))
        #expect(!manager.canLoad(URL(string: "gopher://127.0.0.1/x")!))
        #expect(try await manager.load(ImageLoad.Request(url: URL(string: "data:,x")!)).result().data == Data("x".utf8))
        let gopher = URL(string: "gopher://127.0.0.1/x")!
        do {
            _ = try await manager.load(ImageLoad.Request(url: gopher)).result()
            Issue.record("an unknown scheme loaded")
        } catch let error as WebImageError {
            #expect(error.code == .invalidURL)
            #expect(manager.shouldBlockFailedURL(gopher, error: error))
        }
        manager.removeLoader(named: "data")
        #expect(!manager.canLoad(URL(string: "data:,x")!))
    }
}
