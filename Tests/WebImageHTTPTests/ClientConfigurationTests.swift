import AsyncHTTPClient
import NIOCore
import NIOSSL
import Testing

@testable import WebImageHTTP

/// How the loader's configuration becomes AsyncHTTPClient's (HTTPTLSTests checks TLS against a
/// real HTTPS loopback server).
@Suite("HTTP loader: client configuration")
struct ClientConfigurationTests {
    @Test func invalidCertificatesAreRefusedUnlessOptedIn() {
        let strict = HTTPImageLoader.clientConfiguration(HTTPImageLoaderConfiguration())
        #expect(strict.tlsConfiguration == nil || strict.tlsConfiguration?.certificateVerification == .fullVerification)
        var lenient = HTTPImageLoaderConfiguration()
        lenient.acceptsInvalidCertificates = true
        #expect(HTTPImageLoader.clientConfiguration(lenient).tlsConfiguration?.certificateVerification == CertificateVerification.none)
    }

    @Test func theLenientClientDiffersOnlyInVerification() {
        var configuration = HTTPImageLoaderConfiguration()
        configuration.timeout = .seconds(3)
        configuration.maximumConcurrentDownloads = 11
        let lenient = HTTPImageLoader.clientConfiguration(configuration, acceptingInvalidCertificates: true)
        #expect(lenient.tlsConfiguration?.certificateVerification == CertificateVerification.none)
        #expect(lenient.timeout.connect == .seconds(3))
        #expect(lenient.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit == 11)
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
