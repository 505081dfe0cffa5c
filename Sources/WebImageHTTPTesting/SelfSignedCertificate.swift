public import Foundation
import Crypto
import NIOSSL
import SwiftASN1
import X509

/// A certificate for `127.0.0.1`, made at runtime and signed by its own new P-256 key, for
/// HTTPS loopback tests: nothing is read from the machine and no client trusts it by default.
///
/// Subject `CN=127.0.0.1`, a subject alternative name for the IP address `127.0.0.1`, valid from
/// an hour before it was made until a day after. A client that trusts ``derBytes`` (or
/// ``pem``) as a root verifies a connection to `https://127.0.0.1:<port>` with it.
///
/// ```swift
/// let certificate = try SelfSignedCertificate.make()
/// var tls = TLSConfiguration.makeClientConfiguration()
/// tls.trustRoots = .certificates([try NIOSSLCertificate(bytes: certificate.derBytes, format: .der)])
/// ```
public struct SelfSignedCertificate: Sendable {
    /// The certificate, DER-encoded.
    public let derBytes: [UInt8]
    /// The certificate as a PEM document (`-----BEGIN CERTIFICATE-----`).
    public let pem: String
    /// The signing key, as PKCS #8 PEM; only the server needs it (a server run as a child
    /// process, such as the Redis TLS tests' `redis-server`, reads it from a file).
    public let privateKeyPEM: String

    /// Makes a new key and a certificate for `127.0.0.1` valid around `now`.
    public static func make(now: Date = Date()) throws -> SelfSignedCertificate {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("127.0.0.1") }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(86_400),
            issuer: name,
            subject: name,
            extensions: try Certificate.Extensions {
                SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        let document = try certificate.serializeAsPEM()
        return SelfSignedCertificate(
            derBytes: document.derBytes, pem: document.pemString, privateKeyPEM: key.pemRepresentation)
    }

    /// A TLS server context that presents this certificate.
    func serverContext() throws -> NIOSSLContext {
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: derBytes, format: .der))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)))
        return try NIOSSLContext(configuration: configuration)
    }
}
