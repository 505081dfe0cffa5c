import Testing
import WebImageHTTP

/// The SSRF guard's address classifier over a table of addresses, and its strict literal parser.
@Suite("SSRF guard: address classification")
struct AddressRestrictionTests {
    private func address(_ text: String) throws -> IPAddress { try #require(IPAddress(literal: text), "\(text)") }

    @Test(arguments: [
        "8.8.8.8", "1.1.1.1", "93.184.216.34", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0",
        "126.255.255.255", "128.0.0.0", "169.253.255.255", "169.255.0.0", "172.15.255.255", "172.32.0.0",
        "192.167.255.255", "192.169.0.0", "198.17.255.255", "198.20.0.0", "223.255.255.255",
        "2606:4700:4700::1111", "2001:4860:4860::8888", "2a00:1450:4001::200e", "::ffff:8.8.8.8", "64:ff9b::808:808",
        "2002:808:808::1", "2001:200::1",
    ])
    func publicAddressesPass(_ text: String) throws {
        #expect(try address(text).restriction == nil)
    }

    typealias Row = (address: String, kind: AddressRestriction.Kind, range: String, carrier: String?)

    static let refused: [Row] = [
        ("0.0.0.0", .unspecified, "0.0.0.0/32", nil), ("0.1.2.3", .reserved, "0.0.0.0/8", nil),
        ("10.0.0.1", .privateNetwork, "10.0.0.0/8", nil), ("10.255.255.255", .privateNetwork, "10.0.0.0/8", nil),
        ("100.64.0.1", .sharedAddressSpace, "100.64.0.0/10", nil), ("100.100.100.200", .sharedAddressSpace, "100.64.0.0/10", nil),
        ("100.127.255.255", .sharedAddressSpace, "100.64.0.0/10", nil), ("127.0.0.1", .loopback, "127.0.0.0/8", nil),
        ("127.255.255.254", .loopback, "127.0.0.0/8", nil), ("169.254.169.254", .linkLocal, "169.254.0.0/16", nil),
        ("172.16.0.1", .privateNetwork, "172.16.0.0/12", nil), ("172.31.255.255", .privateNetwork, "172.16.0.0/12", nil),
        ("192.168.1.1", .privateNetwork, "192.168.0.0/16", nil), ("192.0.0.8", .reserved, "192.0.0.0/24", nil),
        ("192.0.2.1", .documentation, "192.0.2.0/24", nil), ("192.88.99.1", .reserved, "192.88.99.0/24", nil),
        ("198.18.0.1", .benchmarking, "198.18.0.0/15", nil), ("198.19.255.255", .benchmarking, "198.18.0.0/15", nil),
        ("198.51.100.7", .documentation, "198.51.100.0/24", nil), ("203.0.113.9", .documentation, "203.0.113.0/24", nil),
        ("224.0.0.1", .multicast, "224.0.0.0/4", nil), ("239.255.255.250", .multicast, "224.0.0.0/4", nil),
        ("240.0.0.1", .reserved, "240.0.0.0/4", nil), ("255.255.255.254", .reserved, "240.0.0.0/4", nil),
        ("255.255.255.255", .broadcast, "255.255.255.255/32", nil),
        ("::", .unspecified, "::/128", nil), ("::1", .loopback, "::1/128", nil),
        ("0:0:0:0:0:0:0:1", .loopback, "::1/128", nil),
        ("::ffff:127.0.0.1", .loopback, "127.0.0.0/8", "IPv4-mapped"), ("::ffff:7f00:1", .loopback, "127.0.0.0/8", "IPv4-mapped"),
        ("::ffff:10.1.2.3", .privateNetwork, "10.0.0.0/8", "IPv4-mapped"),
        ("::ffff:169.254.169.254", .linkLocal, "169.254.0.0/16", "IPv4-mapped"),
        ("::ffff:0.0.0.0", .unspecified, "0.0.0.0/32", "IPv4-mapped"),
        ("::127.0.0.1", .reserved, "::/96", nil), ("::8.8.8.8", .reserved, "::/96", nil),
        ("64:ff9b::7f00:1", .loopback, "127.0.0.0/8", "NAT64"), ("64:ff9b::a00:1", .privateNetwork, "10.0.0.0/8", "NAT64"),
        ("64:ff9b:1::1", .privateNetwork, "64:ff9b:1::/48", nil),
        ("2002:7f00:1::1", .loopback, "127.0.0.0/8", "6to4"), ("2002:c0a8:101::1", .privateNetwork, "192.168.0.0/16", "6to4"),
        ("100::1", .reserved, "100::/64", nil), ("2001::1", .reserved, "2001::/32", nil), ("2001:10::1", .reserved, "2001::/23", nil),
        ("2001:db8::1", .documentation, "2001:db8::/32", nil), ("3fff::1", .documentation, "3fff::/20", nil),
        ("fc00::1", .privateNetwork, "fc00::/7", nil), ("fd00:ec2::254", .privateNetwork, "fc00::/7", nil),
        ("fec0::1", .privateNetwork, "fec0::/10", nil), ("fe80::1", .linkLocal, "fe80::/10", nil),
        ("febf:ffff::1", .linkLocal, "fe80::/10", nil), ("ff02::1", .multicast, "ff00::/8", nil),
        ("4000::1", .reserved, "outside 2000::/3", nil), ("1::1", .reserved, "outside 2000::/3", nil),
    ]

    @Test(arguments: refused)
    func specialPurposeAddressesAreRefusedWithTheirRange(_ row: Row) throws {
        let restriction = try #require(try address(row.address).restriction, "\(row.address) passed")
        #expect(restriction.kind == row.kind, "\(row.address)")
        #expect(restriction.range == row.range, "\(row.address)")
        #expect(restriction.carrier == row.carrier, "\(row.address)")
    }

    @Test func theReasonReadsAsAPhrase() throws {
        #expect(try address("127.0.0.1").restriction?.description == "a loopback address (127.0.0.0/8)")
        #expect(
            try address("::ffff:10.0.0.1").restriction?.description
                == "an IPv4-mapped form of a private address (10.0.0.0/8)")
        #expect(try address("64:ff9b::a9fe:a9fe").restriction?.description == "a NAT64 form of a link-local address (169.254.0.0/16)")
        #expect(try address("255.255.255.255").restriction?.description == "the broadcast address (255.255.255.255/32)")
    }

    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"), ("::FFFF:127.0.0.1", "::ffff:127.0.0.1"), ("0:0:0:0:0:0:0:1", "::1"),
        ("fd00:0000::0001", "fd00::1"), ("255.255.255.255", "255.255.255.255"),
    ])
    func literalsParseStrictlyAndPrintCanonically(_ text: String, _ canonical: String) throws {
        #expect(try address(text).description == canonical)
    }

    // The lax IPv4 spellings are names to the guard: getaddrinfo reads them (see SSRFGuardTests).
    @Test(arguments: [
        "127.1", "2130706433", "0x7f.1", "0177.0.0.1", "1.2.3.4.5", "", "::1%eth0", "[::1]", "localhost", "256.0.0.1", "127.0.0.1\0.example.com",
    ])
    func nonLiteralsAreNotAddresses(_ text: String) {
        #expect(IPAddress(literal: text) == nil, "\(text)")
    }
}
