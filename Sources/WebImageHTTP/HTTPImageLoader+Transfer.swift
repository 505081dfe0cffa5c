import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import WebImage

extension HTTPImageLoader {
    /// Sends the request (after credentials, cookies and the request modifier), following
    /// redirects hop by hop, checks the final response head, streams the body into the
    /// download's buffer with throttled progress, and returns the decrypted body; the attempt
    /// again when the retry strategy says so; all of it within the total timeout.
    func transfer(download id: Int, request: ImageLoad.Request) async throws -> ImageLoad.Result {
        let limit = request.totalTimeout ?? configuration.totalTimeout
        let deadline = limit < Self.unboundedDeadline ? ContinuousClock.now + limit : nil
        return try await withTotalTimeout(limit, url: request.url) {
            try await self.attempts(download: id, request: request, deadline: deadline)
        }
    }

    func transferWithinDeadline(
        download id: Int, request: ImageLoad.Request, resuming: Bool = true
    ) async throws -> ImageLoad.Result {
        let clock = ContinuousClock()
        let start = clock.now
        // An s3:// URL becomes the store's http(s) URL; its requests are signed as they are sent.
        let s3 = try s3Target(of: request)
        // Nothing, not even the request modifier, sees a URL AsyncHTTPClient cannot take safely.
        _ = try HTTPURLShape.checked(s3?.url ?? request.url)
        let client = try client(for: request)
        var outgoing = ImageLoad.URLRequest(url: s3?.url ?? request.url, headers: configuration.headers.merging(request.headers))
        if let revalidation = request.revalidation {
            outgoing.headers = outgoing.headers.merging(revalidation.conditionalHeaders)
        }
        // The bytes an interrupted download of this URL left: ask for the rest if unchanged.
        let resumable = resuming ? takeResumableData(for: request) : nil
        if let resumable { outgoing.headers = outgoing.headers.merging(resumable.resumeHeaders) }
        // The caller's own Cookie header, sent again on later hops of the same origin.
        var explicitCookie = outgoing.headers["Cookie"]
        if request.handlesCookies {
            outgoing.headers = addingCookies(to: outgoing.headers, for: request.url)
        }
        if s3 == nil, outgoing.headers["Authorization"] == nil, let credential = request.credential ?? configuration.credential {
            outgoing.headers["Authorization"] = credential.basicAuthorization
        }
        if let modifier = request.requestModifier ?? configuration.requestModifier {
            guard let modified = try await modifier.modify(outgoing) else {
                throw WebImageError(.cancelled, "the request modifier cancelled \(request.url.absoluteString)")
            }
            outgoing = modified
        }
        let timeout = request.timeout ?? configuration.timeout
        var hop = HTTPRequestHop(url: outgoing.url, number: 0)
        outgoing.url = try await allowedURL(of: hop, s3: s3)
        var response = try await send(&outgoing, timeout: timeout, on: client, s3: s3)
        while true {
            if request.handlesCookies {
                storeCookies(response.headers["Set-Cookie"], for: outgoing.url, mainDocumentURL: request.url)
            }
            guard configuration.maximumRedirects > 0,
                let target = try HTTPRedirect.target(
                    status: Int(response.status.code), location: response.headers.first(name: "Location"), from: outgoing.url)
            else { break }
            guard hop.number < configuration.maximumRedirects else {
                throw WebImageError(
                    .invalidDownloadResponse,
                    "too many redirects from \(request.url.absoluteString) (more than \(configuration.maximumRedirects))")
            }
            // A redirect's body (usually empty or a few bytes) is read so that the connection
            // can be reused; one over 64 KB is dropped, which closes the connection.
            _ = try? await response.body.collect(upTo: 64 * 1024)
            var next = HTTPRedirect.following(outgoing, to: target, status: Int(response.status.code))
            if HTTPURLShape.origin(of: outgoing.url) != HTTPURLShape.origin(of: target) { explicitCookie = nil }
            if request.handlesCookies {
                next.headers["Cookie"] = explicitCookie
                next.headers = addingCookies(to: next.headers, for: target)
            }
            hop = HTTPRequestHop(url: target, number: hop.number + 1, redirectedFrom: outgoing.url)
            outgoing = next
            outgoing.url = try await allowedURL(of: hop, s3: s3)
            response = try await send(&outgoing, timeout: timeout, on: client, s3: s3)
        }
        let timeToFirstByte = clock.now - start
        var head = ImageLoad.Response(
            url: outgoing.url, statusCode: Int(response.status.code),
            headers: ImageLoad.Headers(response.headers.map { ($0.name, $0.value) }))
        var prefix = Data()
        if let resumable {
            let continuation = resumable.continuation(by: head)
            if continuation.matches {
                prefix = resumable.data
                head = resumable.wholeResponse(from: head, total: continuation.total)
            } else if head.statusCode == 206 {
                // A range other than the one asked for: start over, without one.
                _ = try? await response.body.collect(upTo: 64 * 1024)
                return try await transferWithinDeadline(download: id, request: request, resuming: false)
            }
            // Anything else (a 200: the image changed, or ranges are not served) starts over.
        }
        if let modifier = request.responseModifier ?? configuration.responseModifier {
            let rewritten: ImageLoad.Response?
            do {
                rewritten = try await modifier.modify(head)
            } catch {
                throw WebImageError.wrapping(
                    error, code: .invalidDownloadResponse, "the response modifier failed on \(head.url.absoluteString)")
            }
            guard let modified = rewritten else {
                throw WebImageError(
                    .invalidDownloadResponse, "the response modifier rejected \(head.url.absoluteString)",
                    underlying: WebImageError.DownloadDetails(statusCode: head.statusCode, contentType: head.contentType, response: head))
            }
            head = modified
        }
        // Callers see every response head, even one the checks below reject.
        state.withLock { state in
            state.flows[id]?.response = head
            state.flows[id]?.data = prefix
            state.yield(.response(head), to: id)
        }
        configuration.logger.debug(
            "download received response",
            metadata: ["url": "\(head.url.absoluteString)", "status": "\(head.statusCode ?? 0)"])
        broadcaster.send(.receivedResponse(head.url, statusCode: head.statusCode ?? 0))
        if let s3, let failure = await s3Failure(of: response, head: head, request: request, s3: s3) { throw failure }
        try check(head, request: request)
        if let length = head.expectedContentLength, length > 0 {
            state.withLock { $0.flows[id]?.data.reserveCapacity(length) }
        }
        for try await chunk in response.body {
            try Task.checkCancellation()
            try receive(chunk, download: id)
        }
        var data = state.withLock { state -> Data in
            let received = state.flows[id]?.data.count ?? 0
            if state.flows[id]?.throttle.finalReportNeeded(receivedBytes: received) == true {
                state.yieldProgress(of: id)
            }
            return state.flows[id]?.data ?? Data()
        }
        let receivedBytes = data.count
        if let decryptor = request.decryptor ?? configuration.decryptor {
            data = try decryptor.apply(to: data, response: head)
        }
        let metrics = ImageLoad.Metrics(
            receivedBytes: receivedBytes, timeToFirstByte: timeToFirstByte, totalDuration: clock.now - start,
            redirectCount: hop.number)
        return ImageLoad.Result(data: data, response: head, metrics: metrics)
    }

    /// The hop's URL once its shape and the configuration's ``HTTPImageLoaderConfiguration/urlPolicy``
    /// allow it; a policy's own error other than a ``WebImageError`` becomes `urlRefused`. A hop
    /// of an s3:// load to the S3 endpoint the configuration names skips the policy: that address
    /// is the operator's choice, not the requester's.
    private func allowedURL(of hop: HTTPRequestHop, s3: S3Target?) async throws -> URL {
        let url: URL
        do {
            url = try HTTPURLShape.checked(hop.url)
        } catch let error as WebImageError {
            guard let from = hop.redirectedFrom else { throw error }
            throw WebImageError(error.code, "redirect \(hop.number) from \(from.absoluteString): \(error.message)")
        }
        guard let policy = configuration.urlPolicy, s3?.configuration.isConfiguredEndpoint(url) != true else { return url }
        do {
            try await policy.check(HTTPRequestHop(url: url, number: hop.number, redirectedFrom: hop.redirectedFrom))
        } catch {
            let which = hop.redirectedFrom.map { "redirect \(hop.number) from \($0.absoluteString) to " } ?? ""
            throw WebImageError.wrapping(error, code: .urlRefused, "the URL policy refused \(which)\(url.absoluteString): \(error)")
        }
        return url
    }

    /// Sends one hop's request (signed for the S3 store when it goes there); a `401` is sent once
    /// more with the credential provider's answer (which then stays in `outgoing` for the hops
    /// that follow).
    private func send(
        _ outgoing: inout ImageLoad.URLRequest, timeout: Duration, on client: HTTPClient, s3: S3Target?
    ) async throws -> HTTPClientResponse {
        let response = try await execute(signedForStore(outgoing, s3: s3), timeout: timeout, on: client)
        guard s3 == nil, response.status == .unauthorized, outgoing.headers["Authorization"] == nil,
            let provider = configuration.credentialProvider,
            let credential = await provider(outgoing.url, response.headers.first(name: "WWW-Authenticate"))
        else { return response }
        _ = try? await response.body.collect(upTo: 64 * 1024)
        outgoing.headers["Authorization"] = credential.basicAuthorization
        return try await execute(outgoing, timeout: timeout, on: client)
    }

    private func execute(
        _ outgoing: ImageLoad.URLRequest, timeout: Duration, on client: HTTPClient
    ) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: outgoing.url.absoluteString)
        request.method = HTTPMethod(rawValue: outgoing.method)
        for field in outgoing.headers { request.headers.add(name: field.name, value: field.value) }
        if let body = outgoing.body { request.body = .bytes(ByteBuffer(bytes: body)) }
        return try await client.execute(request, timeout: TimeAmount(timeout), logger: configuration.logger)
    }

    /// Status (304 first), content type and declared length.
    private func check(_ head: ImageLoad.Response, request: ImageLoad.Request) throws {
        let status = head.statusCode ?? 0
        if status == 304 { throw WebImageError.notModified(response: head) }
        guard (request.acceptableStatusCodes ?? configuration.acceptableStatusCodes).contains(status) else {
            throw WebImageError.invalidStatus(status, response: head)
        }
        if let types = request.acceptableContentTypes ?? configuration.acceptableContentTypes,
            !types.contains(head.mimeType ?? "")
        {
            throw WebImageError.invalidContentType(head.contentType, response: head)
        }
        if let length = head.expectedContentLength, length > configuration.maximumResponseBytes {
            throw WebImageError(
                .tooLarge,
                "\(head.url.absoluteString) declares \(length) bytes, over the limit of \(configuration.maximumResponseBytes)")
        }
    }

    /// Appends a chunk, enforcing the size limit, and reports progress if the throttle lets it.
    private func receive(_ chunk: ByteBuffer, download id: Int) throws {
        let limit = configuration.maximumResponseBytes
        try state.withLock { state in
            guard state.flows[id] != nil else { return }
            chunk.withUnsafeReadableBytes { state.flows[id]!.data.append(contentsOf: $0) }
            let received = state.flows[id]!.data.count
            guard received <= limit else {
                throw WebImageError(.tooLarge, "the response grew over the limit of \(limit) bytes")
            }
            let expected = state.flows[id]!.response?.expectedContentLength
            if state.flows[id]!.throttle.shouldReport(receivedBytes: received, expectedBytes: expected) {
                state.yieldProgress(of: id)
            }
        }
    }
}
