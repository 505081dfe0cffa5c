import Foundation
import Testing
import WebImage
import WebImageHTTP
import WebImageHTTPTesting

/// An error of the caller's own type, thrown from a hook.
struct HookError: Error, Equatable {
    let hook: String
}

@Suite("HTTP loader: a hook's own error comes back as a WebImageError", .timeLimit(.minutes(3)))
struct HTTPHookErrorTests {
    @Test func aThrowingDecryptorIsBadImageDataWithItsErrorAsTheCause() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/enc", response: .ok(testBytes(64)))
            var request = ImageLoad.Request(url: server.url("/enc"))
            request.decryptor = ImageDataDecryptor { _, _ in throw HookError(hook: "decryptor") }
            let error = try #require(await loadError(loader.load(request)))
            #expect(error.code == .badImageData)
            #expect(error.underlying as? HookError == HookError(hook: "decryptor"))
            #expect(loader.shouldBlockFailedURL(request.url, error: error))
        }
    }

    @Test func aThrowingResponseModifierIsInvalidDownloadResponseWithItsErrorAsTheCause() async throws {
        try await withServerAndLoader { server, loader in
            server.route("/mod", response: .ok(testBytes(64)))
            var request = ImageLoad.Request(url: server.url("/mod"))
            request.responseModifier = ImageResponseModifier { _ in throw HookError(hook: "response") }
            let error = try #require(await loadError(loader.load(request)))
            #expect(error.code == .invalidDownloadResponse)
            #expect(error.underlying as? HookError == HookError(hook: "response"))
        }
    }
}
