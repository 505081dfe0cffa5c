import AsyncHTTPClient
import NIOCore
import NIOSSL
import Testing

@testable import WebImageHTTP

/// How the loader's configuration becomes AsyncHTTPClient's (TLS is checked here, not against a
/// TLS server: see the loader notes).
@Suite("HTTP loader: client configuration")
struct ClientConfigurationTests {
    @Test func invalidCertificatesAreRefusedUnlessOptedIn() {
        let strict = HTTPImageLoader.clientConfiguration(HTTPImageLoaderConfiguration())
        #expect(strict.tlsConfiguration == nil || strict.tlsConfiguration?.certificateVerification == .fullVerification)
        var lenient = HTTPImageLoaderConfiguration()
        lenient.acceptsInvalidCertificates = true
        #expect(HTTPImageLoader.clientConfiguration(lenient).tlsConfiguration?.certificateVerification == CertificateVerification.none)
    }

    @Test func timeoutsAndPoolFollowTheConfiguration() {
        var configuration = HTTPImageLoaderConfiguration()
        configuration.timeout = .milliseconds(1_500)
        configuration.readTimeout = .seconds(2)
        configuration.maximumConcurrentDownloads = 12
        let client = HTTPImageLoader.clientConfiguration(configuration)
        #expect(client.timeout.connect == .milliseconds(1_500))
        #expect(client.timeout.read == .seconds(2))
        #expect(client.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit == 12)
    }
}
