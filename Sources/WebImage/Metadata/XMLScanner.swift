/// One bounded pass over the XML of an XMP packet, finding the properties of its top-level
/// `rdf:Description` elements (see ``XMPPacket``).
struct XMLScanner {
    let bytes: [UInt8]

    private struct OpenElement {
        var namespace: String
        var name: String
        var qualifiedName: ArraySlice<UInt8>
        var start: Int
        var contentStart: Int
        var scope: [String: String]
        /// Whether this is a top-level `rdf:Description` (a child of `rdf:RDF`).
        var isDescription: Bool
        /// Whether this is a property of a top-level `rdf:Description`.
        var isProperty: Bool
        var isRDF: Bool
    }

    private struct Attribute {
        var qualifiedName: String
        var range: Range<Int>
        var valueRange: Range<Int>
    }

    func properties() throws -> [XMPPacket.Property] {
        var properties: [XMPPacket.Property] = []
        var stack: [OpenElement] = []
        var sawElement = false
        var i = 0
        while let open = bytes[i...].firstIndex(of: UInt8(ascii: "<")) {
            if starts(with: "<?", at: open) {
                i = try end(of: "?>", after: open + 2)
            } else if starts(with: "<!--", at: open) {
                i = try end(of: "-->", after: open + 4)
            } else if starts(with: "<![CDATA[", at: open) {
                i = try end(of: "]]>", after: open + 9)
            } else if starts(with: "<!", at: open) {
                throw WebImageError.badData("XMP: a DOCTYPE or declaration is not allowed")
            } else if starts(with: "</", at: open) {
                let close = try end(of: ">", after: open + 2)
                let name = trimmed(bytes[(open + 2)..<(close - 1)])
                guard let element = stack.popLast(), element.qualifiedName.elementsEqual(name) else {
                    throw WebImageError.badData("XMP: unbalanced end tag at \(open)")
                }
                if element.isProperty {
                    let content = element.contentStart..<open
                    let simple = !bytes[content].contains(UInt8(ascii: "<"))
                    properties.append(
                        XMPPacket.Property(
                            namespace: element.namespace, name: element.name, range: element.start..<close,
                            valueRange: simple ? content : nil))
                }
                i = close
            } else {
                sawElement = true
                let (nameEnd, attributes, tagEnd, selfClosing) = try startTag(at: open)
                let qualifiedName = bytes[(open + 1)..<nameEnd]
                var scope = stack.last?.scope ?? [:]
                for attribute in attributes {
                    if attribute.qualifiedName == "xmlns" {
                        scope[""] = String(decoding: bytes[attribute.valueRange], as: UTF8.self)
                    } else if attribute.qualifiedName.hasPrefix("xmlns:") {
                        scope[String(attribute.qualifiedName.dropFirst(6))] = String(decoding: bytes[attribute.valueRange], as: UTF8.self)
                    }
                }
                let (namespace, name) = resolve(String(decoding: qualifiedName, as: UTF8.self), in: scope)
                let parent = stack.last
                let isRDF = namespace == XMPPacket.Namespace.rdf && name == "RDF"
                let isDescription =
                    parent?.isRDF == true && namespace == XMPPacket.Namespace.rdf && name == "Description"
                let isProperty = parent?.isDescription == true
                if isDescription {
                    for attribute in attributes where !attribute.qualifiedName.hasPrefix("xmlns") {
                        let (attributeNamespace, attributeName) = resolve(attribute.qualifiedName, in: scope, isAttribute: true)
                        guard attributeNamespace != XMPPacket.Namespace.rdf, !attribute.qualifiedName.hasPrefix("xml:") else {
                            continue
                        }
                        properties.append(
                            XMPPacket.Property(
                                namespace: attributeNamespace, name: attributeName, range: attribute.range,
                                valueRange: attribute.valueRange))
                    }
                }
                if selfClosing {
                    if isProperty {
                        properties.append(XMPPacket.Property(namespace: namespace, name: name, range: open..<tagEnd, valueRange: nil))
                    }
                } else {
                    guard stack.count < XMPPacket.maxDepth else { throw WebImageError.badData("XMP: nested too deeply") }
                    stack.append(
                        OpenElement(
                            namespace: namespace, name: name, qualifiedName: qualifiedName, start: open, contentStart: tagEnd,
                            scope: scope, isDescription: isDescription, isProperty: isProperty, isRDF: isRDF))
                }
                i = tagEnd
            }
        }
        guard stack.isEmpty, sawElement else { throw WebImageError.badData("XMP: unclosed elements or no element") }
        return properties
    }

    /// A start tag at `open`: where its name ends, its attributes, the offset after its `>` and
    /// whether it closes itself.
    private func startTag(at open: Int) throws -> (Int, [Attribute], Int, Bool) {
        var i = open + 1
        while i < bytes.count, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: ">"), bytes[i] != UInt8(ascii: "/") { i += 1 }
        let nameEnd = i
        guard nameEnd > open + 1 else { throw WebImageError.badData("XMP: a tag without a name at \(open)") }
        var attributes: [Attribute] = []
        while true {
            let before = i
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count else { throw WebImageError.badData("XMP: unterminated tag at \(open)") }
            if bytes[i] == UInt8(ascii: ">") { return (nameEnd, attributes, i + 1, false) }
            if bytes[i] == UInt8(ascii: "/") {
                guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ">") else {
                    throw WebImageError.badData("XMP: stray / in the tag at \(open)")
                }
                return (nameEnd, attributes, i + 2, true)
            }
            guard i > before else { throw WebImageError.badData("XMP: attributes run together at \(i)") }
            let nameStart = i
            while i < bytes.count, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: "="), bytes[i] != UInt8(ascii: ">") { i += 1 }
            let name = String(decoding: bytes[nameStart..<i], as: UTF8.self)
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "="), !name.isEmpty else {
                throw WebImageError.badData("XMP: an attribute without a value at \(nameStart)")
            }
            i += 1
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                throw WebImageError.badData("XMP: an unquoted attribute value at \(i)")
            }
            let quote = bytes[i]
            guard let close = bytes[(i + 1)...].firstIndex(of: quote) else {
                throw WebImageError.badData("XMP: an unterminated attribute value at \(i)")
            }
            attributes.append(Attribute(qualifiedName: name, range: before..<(close + 1), valueRange: (i + 1)..<close))
            i = close + 1
        }
    }

    /// The namespace and local name of `qualifiedName`; unprefixed attributes have no namespace.
    private func resolve(_ qualifiedName: String, in scope: [String: String], isAttribute: Bool = false) -> (String, String) {
        guard let colon = qualifiedName.firstIndex(of: ":") else {
            return (isAttribute ? "" : scope[""] ?? "", qualifiedName)
        }
        let prefix = String(qualifiedName[..<colon])
        return (scope[prefix] ?? "", String(qualifiedName[qualifiedName.index(after: colon)...]))
    }

    private func starts(with text: StaticString, at offset: Int) -> Bool {
        text.withUTF8Buffer { marker in
            offset + marker.count <= bytes.count && bytes[offset..<(offset + marker.count)].elementsEqual(marker)
        }
    }

    /// The offset just after the first `marker` at or after `offset`.
    private func end(of marker: StaticString, after offset: Int) throws -> Int {
        let found: Int? = marker.withUTF8Buffer { marker in
            var i = offset
            while i + marker.count <= bytes.count {
                if bytes[i] == marker[0], bytes[i..<(i + marker.count)].elementsEqual(marker) { return i + marker.count }
                i += 1
            }
            return nil
        }
        guard let found else { throw WebImageError.badData("XMP: unterminated markup at \(offset)") }
        return found
    }

    private func trimmed(_ slice: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = slice
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
}
