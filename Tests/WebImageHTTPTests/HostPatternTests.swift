import Testing
import WebImage
import WebImageHTTP

/// Host patterns: what parses, its canonical text, and what each form matches.
@Suite("SSRF guard: host patterns")
struct HostPatternTests {
    private func address(_ text: String) throws -> IPAddress { try #require(IPAddress(literal: text)) }

    @Test(arguments: [
        ("img.example.com", "img.example.com"), ("IMG.Example.COM.", "img.example.com"), ("*.example.com", "*.example.com"),
        ("*.Example.com.", "*.example.com"), ("127.0.0.1", "127.0.0.1"), ("10.0.0.0/8", "10.0.0.0/8"), ("::1", "::1"),
        ("[::1]", "::1"), ("fd00::/8", "fd00::/8"), ("[fd00::]/8", "fd00::/8"), ("0.0.0.0/0", "0.0.0.0/0"),
        ("::/0", "::/0"), ("192.168.1.7/32", "192.168.1.7"), ("my_host", "my_host"), ("localhost", "localhost"),
    ])
    func validPatternsParseToCanonicalText(_ text: String, _ canonical: String) throws {
        #expect(try HostPattern(text).description == canonical)
        #expect(try HostPattern(text) == HostPattern(canonical))
    }

    @Test(arguments: [
        "", "*", "*.", "*.10.0.0.1", "10.0.0.1/8", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/x", "10.0.0.0/-1", "fd00::/129",
        "fd00::1/8", "exa mple.com", "a..b", "[::1", "[::1]x", "[example.com]", "http://example.com", "bücher.de",
        "example.com:80", "\(String(repeating: "a", count: 64)).com",
    ])
    func invalidPatternsThrowATypedError(_ text: String) {
        let error = #expect(throws: WebImageError.self) { try HostPattern(text) }
        #expect(error?.code == .invalidURL)
        #expect(error?.message.contains("host pattern \"\(text)\"") == true, "\(error?.message ?? "")")
    }

    @Test func hostBitsAfterThePrefixAreRefusedNamingTheRange() {
        let error = #expect(throws: WebImageError.self) { try HostPattern("10.1.0.0/8") }
        #expect(error?.message.contains("the range starts at 10.0.0.0") == true, "\(error?.message ?? "")")
    }

    @Test func aNameMatchesItselfOnly() throws {
        let pattern = try HostPattern("img.example.com")
        #expect(pattern.matches(host: "img.example.com"))
        #expect(!pattern.matches(host: "a.img.example.com"))
        #expect(!pattern.matches(host: "example.com"))
        #expect(!pattern.matches(address: try address("93.184.216.34")))
    }

    @Test func aDomainMatchesEveryNameBelowItButNotItself() throws {
        let pattern = try HostPattern("*.example.com")
        #expect(pattern.matches(host: "a.example.com"))
        #expect(pattern.matches(host: "a.b.example.com"))
        #expect(!pattern.matches(host: "example.com"))
        #expect(!pattern.matches(host: "badexample.com"))
        #expect(!pattern.matches(host: "example.com.evil.test"))
    }

    @Test func anAddressPatternMatchesLiteralsResolvedAddressesAndTheIPv6FormsCarryingIt() throws {
        let range = try HostPattern("10.0.0.0/8")
        #expect(range.matches(host: "10.1.2.3"))
        #expect(!range.matches(host: "11.0.0.1"))
        #expect(!range.matches(host: "ten.example"))
        #expect(range.matches(address: try address("10.255.0.1")))
        #expect(range.matches(address: try address("::ffff:10.1.2.3")))
        #expect(range.matches(address: try address("64:ff9b::a01:203")))
        #expect(!range.matches(address: try address("11.0.0.0")))
        #expect(!range.matches(address: try address("::a01:203")))
        let one = try HostPattern("127.0.0.1")
        #expect(one.matches(address: try address("127.0.0.1")))
        #expect(!one.matches(address: try address("127.0.0.2")))
        let v6 = try HostPattern("fd00::/8")
        #expect(v6.matches(address: try address("fd12::1")))
        #expect(!v6.matches(address: try address("fe00::1")))
        #expect(!v6.matches(address: try address("10.0.0.1")))
        #expect(try HostPattern("[::1]").matches(host: "::1"))
        #expect(try HostPattern("0.0.0.0/0").matches(address: try address("8.8.8.8")))
    }
}
