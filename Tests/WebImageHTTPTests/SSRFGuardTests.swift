import Foundation
import Synchronization
import Testing
import WebImage
import WebImageHTTP

/// The SSRF guard as a policy, without a server: literal hosts, lax IPv4 spellings through the
/// system resolver (numeric, no DNS traffic), and names through a fake resolver.
@Suite("SSRF guard: the policy's rules")
struct SSRFGuardTests {
    /// A resolver answering from a table and counting the names it was asked.
    final class FakeDNS: Sendable {
        let table: [String: [String]]
        private let asked = Mutex<[String]>([])
        init(_ table: [String: [String]]) { self.table = table }
        var questions: [String] { asked.withLock { $0 } }
        var resolver: HostResolver {
            HostResolver { name in
                self.asked.withLock { $0.append(name) }
                let key = name.hasSuffix(".") ? String(name.lowercased().dropLast()) : name.lowercased()
                guard let answers = self.table[key] else { throw WebImageError(.networkError, "could not resolve \(name)") }
                return answers.map { IPAddress(literal: $0)! }
            }
        }
    }

    static let dns: [String: [String]] = [
        "evil.test": ["10.0.0.1"], "good.test": ["93.184.216.34"], "mixed.test": ["93.184.216.34", "2606:4700::1", "127.0.0.1"],
        "mapped.test": ["::ffff:192.168.0.1"], "metadata.test": ["169.254.169.254"], "good.example.com": ["93.184.216.34"],
        "img.example.com": ["93.184.216.34"], "empty.test": [],
    ]

    /// The error the guard refuses `text` with (nil when it allows it).
    private func refusal(
        _ text: String, allow: [String] = [], deny: [String] = [], dns: FakeDNS = FakeDNS(Self.dns), redirectedFrom: URL? = nil
    ) async throws -> WebImageError? {
        let policy = HTTPURLPolicy.ssrfGuard(
            allowHosts: try allow.map(HostPattern.init), denyHosts: try deny.map(HostPattern.init), resolver: dns.resolver)
        let url = try #require(URL(string: text))
        do {
            try await policy.check(HTTPRequestHop(url: url, number: redirectedFrom == nil ? 0 : 1, redirectedFrom: redirectedFrom))
            return nil
        } catch let error as WebImageError {
            return error
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1/x.png", "127.0.0.1 is a loopback address (127.0.0.0/8)"),
        ("http://[::1]/x.png", "::1 is a loopback address (::1/128)"),
        ("http://[0:0:0:0:0:0:0:1]/x.png", "::1 is a loopback address (::1/128)"),
        ("http://[::ffff:127.0.0.1]/x.png", "::ffff:127.0.0.1 is an IPv4-mapped form of a loopback address (127.0.0.0/8)"),
        ("http://[::ffff:7f00:1]/x.png", "::ffff:127.0.0.1 is an IPv4-mapped form of a loopback address"),
        ("http://[::127.0.0.1]/x.png", "::127.0.0.1 is a reserved address (::/96)"),
        ("http://10.0.0.1/x.png", "10.0.0.1 is a private address (10.0.0.0/8)"),
        ("http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"),
        ("http://[fd00:ec2::254]/latest/meta-data/", "fd00:ec2::254 is a private address (fc00::/7)"),
        ("http://[fe80::1%25eth0]/x.png", "fe80::1 is a link-local address (fe80::/10)"),
        ("http://0.0.0.0/x.png", "0.0.0.0 is an unspecified address"),
        ("http://[::]/x.png", ":: is an unspecified address"),
        ("http://127.0.0.%31/x.png", "127.0.0.1 is a loopback address"),
        ("http://224.0.0.1/x.png", "224.0.0.1 is a multicast address"),
    ])
    func literalHostsInForbiddenRangesAreRefusedWithoutDNS(_ text: String, _ reason: String) async throws {
        let dns = FakeDNS([:])
        let error = try #require(try await refusal(text, dns: dns), "\(text) was allowed")
        #expect(error.code == .urlRefused)
        #expect(error.message.contains("the SSRF guard refused \(text)"), "\(error.message)")
        #expect(error.message.contains(reason), "\(error.message)")
        #expect(dns.questions.isEmpty)
    }

    // Foundation keeps these hosts as written and AsyncHTTPClient hands them to getaddrinfo,
    // whose inet_aton reading makes each one 127.0.0.1 (or 0.0.0.0, which Linux connects to
    // loopback). The guard must resolve them the same way; numeric names cause no DNS traffic.
    @Test(arguments: [
        ("http://2130706433/x.png", "127.0.0.1"), ("http://0x7f000001/x.png", "127.0.0.1"), ("http://0x7f.1/x.png", "127.0.0.1"),
        ("http://0177.0.0.1/x.png", "127.0.0.1"), ("http://017700000001/x.png", "127.0.0.1"), ("http://127.1/x.png", "127.0.0.1"),
        ("http://0/x.png", "0.0.0.0"), ("http://localhost/x.png", "127.0.0.1"), ("http://167772161/x.png", "10.0.0.1"),
    ])
    func laxIPv4SpellingsResolveToWhatTheConnectionWouldUseAndAreRefused(_ text: String, _ address: String) async throws {
        let policy = HTTPURLPolicy.ssrfGuard()
        let url = try #require(URL(string: text))
        let error = await #expect(throws: WebImageError.self) { try await policy.check(HTTPRequestHop(url: url, number: 0)) }
        #expect(error?.code == .urlRefused)
        #expect(error?.message.contains("resolves to \(address), which is") == true, "\(error?.message ?? "")")
    }

    @Test func aNameResolvingToAPrivateAddressIsRefusedAndAPublicOnePasses() async throws {
        let error = try #require(try await refusal("http://evil.test/x.png"))
        #expect(error.code == .urlRefused)
        #expect(
            error.message.contains("the host evil.test resolves to 10.0.0.1, which is a private address (10.0.0.0/8)"),
            "\(error.message)")
        #expect(try await refusal("http://good.test/x.png") == nil)
        #expect(try await refusal("https://GOOD.test./x.png") == nil)
    }

    @Test(arguments: [
        ("http://mixed.test/x.png", "resolves to 127.0.0.1"), ("http://mapped.test/x.png", "an IPv4-mapped form of a private"),
        ("http://metadata.test/x.png", "169.254.169.254, which is a link-local"),
    ])
    func oneForbiddenAnswerAmongSeveralRefuses(_ text: String, _ reason: String) async throws {
        let error = try #require(try await refusal(text))
        #expect(error.message.contains(reason), "\(error.message)")
    }

    @Test func aRedirectHopIsNamedInTheRefusal() async throws {
        let from = try #require(URL(string: "https://good.test/start"))
        let error = try #require(try await refusal("http://127.0.0.1:8080/x.png", redirectedFrom: from))
        #expect(error.message.contains("refused http://127.0.0.1:8080/x.png (redirect 1 from https://good.test/start)"), "\(error.message)")
    }

    @Test func theAllowlistWinsOverTheAddressRules() async throws {
        #expect(try await refusal("http://evil.test/x.png", allow: ["evil.test"]) == nil)
        #expect(try await refusal("http://evil.test/x.png", allow: ["*.test"]) == nil)
        #expect(try await refusal("http://evil.test/x.png", allow: ["10.0.0.0/8"]) == nil)
        #expect(try await refusal("http://[::ffff:127.0.0.1]/x.png", allow: ["127.0.0.1"]) == nil)
        #expect(try await refusal("http://[::1]/x.png", allow: ["[::1]"]) == nil)
        #expect(try await refusal("http://127.0.0.1/x.png", allow: ["127.0.0.0/8"]) == nil)
        // Allowing one address does not allow its neighbours or other answers.
        #expect(try await refusal("http://127.0.0.2/x.png", allow: ["127.0.0.1"]) != nil)
        #expect(try await refusal("http://mixed.test/x.png", allow: ["10.0.0.0/8"]) != nil)
        #expect(try await refusal("http://evil.test/x.png", allow: ["good.test", "*.example.com"]) != nil)
    }

    @Test func anAllowedNameIsNotResolvedUnlessTheDenylistHasAddresses() async throws {
        let dns = FakeDNS(Self.dns)
        #expect(try await refusal("http://evil.test/x.png", allow: ["evil.test"], dns: dns) == nil)
        #expect(dns.questions.isEmpty)
        #expect(try await refusal("http://evil.test/x.png", allow: ["evil.test"], deny: ["*.example.com"], dns: dns) == nil)
        #expect(dns.questions.isEmpty)
        let error = try #require(try await refusal("http://evil.test/x.png", allow: ["evil.test"], deny: ["10.0.0.0/8"], dns: dns))
        #expect(error.message.contains("10.0.0.1, which is denied by the pattern 10.0.0.0/8"), "\(error.message)")
        #expect(dns.questions == ["evil.test"])
    }

    @Test func theDenylistRefusesFirst() async throws {
        let byDomain = try #require(try await refusal("http://good.example.com/x.png", deny: ["*.example.com"]))
        #expect(byDomain.code == .urlRefused)
        #expect(byDomain.message.contains("the host good.example.com is denied by the pattern *.example.com"), "\(byDomain.message)")
        #expect(try await refusal("http://img.example.com/x.png", allow: ["img.example.com"], deny: ["*.example.com"]) != nil)
        #expect(try await refusal("http://good.test/x.png", allow: ["93.184.216.34"], deny: ["93.184.216.0/24"]) != nil)
        let literal = try #require(try await refusal("http://93.184.216.34/x.png", deny: ["93.184.216.34"]))
        #expect(literal.message.contains("the host 93.184.216.34 is denied by the pattern 93.184.216.34"), "\(literal.message)")
        #expect(try await refusal("http://[::ffff:93.184.216.34]/x.png", deny: ["93.184.216.0/24"]) != nil)
    }

    @Test func aNameThatDoesNotResolveFailsAsANetworkErrorAndNoAnswerIsARefusal() async throws {
        let unknown = try #require(try await refusal("http://nowhere.test/x.png"))
        #expect(unknown.code == .networkError)
        let empty = try #require(try await refusal("http://empty.test/x.png"))
        #expect(empty.code == .urlRefused)
        #expect(empty.message.contains("resolves to no address"), "\(empty.message)")
    }

    // A NUL would cut the name short in getaddrinfo ("127.0.0.1\0.example.com" is 127.0.0.1)
    // after an allowlist matched the whole of it.
    @Test(arguments: ["http://127.0.0.1%00.example.com/x.png", "http://exa%20mple.com/x.png", "http://a%2Fb.test/x.png"])
    func hostsThatAreNoHostNameAreRefused(_ text: String) async throws {
        let error = try #require(try await refusal(text, allow: ["*.example.com", "*.test"]))
        #expect(error.code == .urlRefused)
        #expect(error.message.contains("is neither a host name nor an IP address"), "\(error.message)")
    }
}
