/// Why the SSRF guard refuses to connect to an address: the special-purpose range it falls in.
///
/// IPv4: unspecified `0.0.0.0`, "this network" `0.0.0.0/8`, private `10/8`, `172.16/12`,
/// `192.168/16`, shared `100.64/10` (carrier-grade NAT; Alibaba's metadata service sits there),
/// loopback `127/8`, link-local `169.254/16` (cloud metadata services), IETF `192.0.0/24`,
/// documentation `192.0.2/24`, `198.51.100/24`, `203.0.113/24`, 6to4 relay `192.88.99/24`,
/// benchmarking `198.18/15`, multicast `224/4`, reserved `240/4` and broadcast `255.255.255.255`.
///
/// IPv6: unspecified `::`, loopback `::1`, everything else in `::/96` (the deprecated
/// IPv4-compatible `::a.b.c.d`), local-use NAT64 `64:ff9b:1::/48`, discard `100::/64`, IETF
/// `2001::/23` (Teredo `2001::/32` included), documentation `2001:db8::/32` and `3fff::/20`, unique
/// local `fc00::/7` (AWS's metadata service is `fd00:ec2::254`), site-local `fec0::/10`,
/// link-local `fe80::/10`, multicast `ff00::/8`, and anything outside global unicast `2000::/3`.
/// Three IPv6 forms carry an IPv4 address and are judged by it: IPv4-mapped `::ffff:a.b.c.d`
/// (the kernel connects to `a.b.c.d` itself), NAT64 `64:ff9b::a.b.c.d` (a NAT64 gateway
/// connects to it) and 6to4 `2002:AABB:CCDD::/48` (a 6to4 relay routes to it); each passes only
/// when its IPv4 address would.
package struct AddressRestriction: Sendable, Hashable, CustomStringConvertible {
    /// The kind of special-purpose range.
    package enum Kind: String, Sendable, Hashable {
        case unspecified, loopback, privateNetwork, sharedAddressSpace, linkLocal, multicast, broadcast
        case reserved, documentation, benchmarking
    }

    /// What the range is for.
    package var kind: Kind
    /// The range, in CIDR notation.
    package var range: String
    /// The IPv6 form that carried the IPv4 address the restriction is about (nil for a plain address).
    package var carrier: String?

    /// `a loopback address (127.0.0.0/8)`, `an IPv4-mapped form of a private address (10.0.0.0/8)`, …
    package var description: String {
        let what: String
        switch kind {
        case .unspecified: what = "an unspecified address"
        case .loopback: what = "a loopback address"
        case .privateNetwork: what = "a private address"
        case .sharedAddressSpace: what = "a shared (carrier-grade NAT) address"
        case .linkLocal: what = "a link-local address"
        case .multicast: what = "a multicast address"
        case .broadcast: what = "the broadcast address"
        case .reserved: what = "a reserved address"
        case .documentation: what = "a documentation address"
        case .benchmarking: what = "a benchmarking address"
        }
        guard let carrier else { return "\(what) (\(range))" }
        return "\(carrier.hasPrefix("IPv4") ? "an" : "a") \(carrier) form of \(what) (\(range))"
    }
}

extension IPAddress {
    /// The restriction this address falls under, or nil for a public unicast address.
    package var restriction: AddressRestriction? {
        switch self {
        case .v4:
            return Self.v4Ranges.first { shares(prefix: $0.length, with: $0.prefix) }.map {
                AddressRestriction(kind: $0.kind, range: $0.text, carrier: nil)
            }
        case .v6:
            if let carried {
                guard var restriction = carried.address.restriction else { return nil }
                restriction.carrier = carried.name
                return restriction
            }
            if let range = Self.v6Ranges.first(where: { shares(prefix: $0.length, with: $0.prefix) }) {
                return AddressRestriction(kind: range.kind, range: range.text, carrier: nil)
            }
            guard shares(prefix: 3, with: .v6(UInt128(0x2000) << 112)) else {
                return AddressRestriction(kind: .reserved, range: "outside 2000::/3", carrier: nil)
            }
            return nil
        }
    }

    /// The IPv4 address an IPv4-mapped, NAT64 or 6to4 address carries (nil for any other address).
    var carriedIPv4: IPAddress? { carried?.address }

    private var carried: (name: String, address: IPAddress)? {
        guard case .v6(let value) = self,
            let carrier = Self.carriers.first(where: { shares(prefix: $0.length, with: $0.prefix) })
        else { return nil }
        return (carrier.name, .v4(UInt32(truncatingIfNeeded: value >> UInt128(carrier.shift))))
    }

    private struct SpecialRange {
        let prefix: IPAddress
        let length: Int
        let kind: AddressRestriction.Kind
        var text: String { "\(prefix)/\(length)" }

        init(_ text: String, _ kind: AddressRestriction.Kind) {
            let parts = text.split(separator: "/")
            prefix = IPAddress(literal: String(parts[0]))!
            length = Int(parts[1])!
            self.kind = kind
        }
    }

    /// IPv6 forms that carry an IPv4 address: the prefix, and the bit offset of the IPv4 address.
    private struct Carrier {
        let name: String
        let prefix: IPAddress
        let length: Int
        let shift: Int
    }

    // Order matters: the first range that holds the address names it (broadcast before 240/4,
    // the unspecified address before 0/8, Teredo before the rest of 2001::/23).
    private static let v4Ranges: [SpecialRange] = [
        SpecialRange("255.255.255.255/32", .broadcast), SpecialRange("0.0.0.0/32", .unspecified), SpecialRange("0.0.0.0/8", .reserved),
        SpecialRange("10.0.0.0/8", .privateNetwork), SpecialRange("100.64.0.0/10", .sharedAddressSpace), SpecialRange("127.0.0.0/8", .loopback),
        SpecialRange("169.254.0.0/16", .linkLocal), SpecialRange("172.16.0.0/12", .privateNetwork), SpecialRange("192.0.0.0/24", .reserved),
        SpecialRange("192.0.2.0/24", .documentation), SpecialRange("192.88.99.0/24", .reserved), SpecialRange("192.168.0.0/16", .privateNetwork),
        SpecialRange("198.18.0.0/15", .benchmarking), SpecialRange("198.51.100.0/24", .documentation),
        SpecialRange("203.0.113.0/24", .documentation), SpecialRange("224.0.0.0/4", .multicast), SpecialRange("240.0.0.0/4", .reserved),
    ]

    private static let carriers: [Carrier] = [
        Carrier(name: "IPv4-mapped", prefix: IPAddress(literal: "::ffff:0:0")!, length: 96, shift: 0),
        Carrier(name: "NAT64", prefix: IPAddress(literal: "64:ff9b::")!, length: 96, shift: 0),
        Carrier(name: "6to4", prefix: IPAddress(literal: "2002::")!, length: 16, shift: 80),
    ]

    private static let v6Ranges: [SpecialRange] = [
        SpecialRange("::/128", .unspecified), SpecialRange("::1/128", .loopback), SpecialRange("::/96", .reserved),
        SpecialRange("64:ff9b:1::/48", .privateNetwork), SpecialRange("100::/64", .reserved), SpecialRange("2001::/32", .reserved),
        SpecialRange("2001::/23", .reserved), SpecialRange("2001:db8::/32", .documentation), SpecialRange("3fff::/20", .documentation),
        SpecialRange("fc00::/7", .privateNetwork), SpecialRange("fec0::/10", .privateNetwork), SpecialRange("fe80::/10", .linkLocal),
        SpecialRange("ff00::/8", .multicast),
    ]
}
