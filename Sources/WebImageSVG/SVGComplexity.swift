import WebImage

/// What an SVG document asks of the renderer, counted from its markup before librsvg sees it.
///
/// librsvg's time grows with the elements it draws, the path segments it strokes and fills, and
/// the filter passes it runs over the output area; a 16.7 MB document of 300,000 circles took
/// 40 s. ``SVGCoder`` counts these first and refuses a document over its
/// ``SVGComplexity/Limits`` with ``WebImageError/Code/tooLarge`` naming what was over, so no
/// render starts that could not finish in a few seconds.
///
/// The count is a single pass over the bytes, not an XML parse: elements are start tags,
/// path commands the command letters of `d` attributes and the points of `points`, filter
/// primitives the `fe…` elements. Comments, CDATA and processing instructions are skipped.
///
/// ```swift
/// let complexity = SVGComplexity(svgData)
/// print(complexity.elements, complexity.pathCommands, complexity.filterPrimitives)
/// try complexity.check(against: .standard, outputPixels: 512 * 512)
/// ```
public struct SVGComplexity: Sendable, Equatable {
    /// Start tags (every element, the root included).
    public var elements = 0
    /// Path commands in `d` attributes and points in `points` attributes.
    public var pathCommands = 0
    /// Filter primitive elements (`feGaussianBlur`, `feTurbulence`, …).
    public var filterPrimitives = 0
    /// The largest `stdDeviation` of any blur or shadow, in user units.
    public var largestBlurDeviation = 0.0
    /// The largest `font-size` given in an attribute or a `style` attribute, in user units.
    public var largestFontSize = 0.0

    /// The most a render may ask; ``standard`` keeps a render at the pixel limit to a few seconds
    /// of one core.
    public struct Limits: Sendable, Equatable {
        /// The most elements.
        public var maxElements: Int
        /// The most path commands and points.
        public var maxPathCommands: Int
        /// The most filter primitives.
        public var maxFilterPrimitives: Int
        /// The most drawing work: (elements + path commands ÷ 10) × output megapixels (at least
        /// 0.25). librsvg fills each element's area, so the worst case — every element covering
        /// the whole canvas — grows with both.
        public var maxDrawingWork: Double
        /// The most filter work: filter primitives × output megapixels.
        public var maxFilterMegapixels: Double
        /// The largest blur standard deviation, in user units.
        public var maxBlurDeviation: Double
        /// The largest font size, in user units (librsvg 2.54 aborts on sizes that overflow
        /// Pango's 32-bit units, about 2 million).
        public var maxFontSize: Double

        /// Creates limits.
        public init(
            maxElements: Int, maxPathCommands: Int, maxDrawingWork: Double, maxFilterPrimitives: Int,
            maxFilterMegapixels: Double, maxBlurDeviation: Double, maxFontSize: Double
        ) {
            self.maxDrawingWork = maxDrawingWork
            self.maxElements = maxElements
            self.maxPathCommands = maxPathCommands
            self.maxFilterPrimitives = maxFilterPrimitives
            self.maxFilterMegapixels = maxFilterMegapixels
            self.maxBlurDeviation = maxBlurDeviation
            self.maxFontSize = maxFontSize
        }

        /// 50,000 elements, 500,000 path commands, 20,000 units of drawing work (20,000 elements at
        /// one megapixel, 2,000 at ten: with librsvg 2.54 about 6 s of one core when every
        /// element covers the whole canvas, well under a second for ordinary drawings), 100
        /// filter primitives and 2,000 filter megapixels, blurs up to 1,000 units and fonts up
        /// to 100,000 units.
        public static let standard = Limits(
            maxElements: 50_000, maxPathCommands: 500_000, maxDrawingWork: 20_000, maxFilterPrimitives: 100,
            maxFilterMegapixels: 2_000, maxBlurDeviation: 1_000, maxFontSize: 100_000)

        /// No limit (for trusted documents).
        public static let unlimited = Limits(
            maxElements: .max, maxPathCommands: .max, maxDrawingWork: .infinity, maxFilterPrimitives: .max,
            maxFilterMegapixels: .infinity, maxBlurDeviation: .infinity, maxFontSize: .infinity)
    }

    /// Counts `document`'s markup.
    public init<Bytes: Collection<UInt8>>(_ document: Bytes) {
        let bytes = Array(document)
        var scanner = Scanner(bytes: bytes)
        scanner.scan(into: &self)
    }

    /// Throws ``WebImageError/Code/tooLarge`` naming the first limit the document is over, for a
    /// render of `outputPixels` pixels.
    public func check(against limits: Limits, outputPixels: Int) throws {
        func over(_ what: String, _ value: String, _ limit: String) -> WebImageError {
            WebImageError(.tooLarge, "the SVG document has \(what) \(value), over the limit of \(limit)")
        }
        if elements > limits.maxElements { throw over("elements:", "\(elements)", "\(limits.maxElements)") }
        if pathCommands > limits.maxPathCommands {
            throw over("path commands:", "\(pathCommands)", "\(limits.maxPathCommands)")
        }
        if filterPrimitives > limits.maxFilterPrimitives {
            throw over("filter primitives:", "\(filterPrimitives)", "\(limits.maxFilterPrimitives)")
        }
        let megapixels = Double(outputPixels) / 1_000_000
        let drawingWork = (Double(elements) + Double(pathCommands) / 10) * max(0.25, megapixels)
        if drawingWork > limits.maxDrawingWork {
            throw over(
                "drawing work ((elements + path commands ÷ 10) × output megapixels, at least 0.25):", "\(Int(drawingWork.rounded(.up)))",
                "\(Int(limits.maxDrawingWork))")
        }
        let filterWork = Double(filterPrimitives) * megapixels
        if filterWork > limits.maxFilterMegapixels {
            throw over(
                "filter work (primitives × output megapixels):", "\(Int(filterWork.rounded(.up)))",
                "\(Int(limits.maxFilterMegapixels))")
        }
        if largestBlurDeviation > limits.maxBlurDeviation {
            throw over("a blur deviation of", "\(largestBlurDeviation)", "\(limits.maxBlurDeviation)")
        }
        if largestFontSize > limits.maxFontSize {
            throw over("a font size of", "\(largestFontSize)", "\(limits.maxFontSize)")
        }
    }
}

extension SVGComplexity {
    /// The single pass over the markup.
    private struct Scanner {
        let bytes: [UInt8]
        var at = 0

        mutating func scan(into complexity: inout SVGComplexity) {
            while let open = find(UInt8(ascii: "<"), from: at) {
                at = open + 1
                if starts(with: "!--") {
                    at = find("-->", from: at).map { $0 + 3 } ?? bytes.count
                } else if starts(with: "![CDATA[") {
                    at = find("]]>", from: at).map { $0 + 3 } ?? bytes.count
                } else if starts(with: "?") || starts(with: "!") || starts(with: "/") {
                    at = find(UInt8(ascii: ">"), from: at).map { $0 + 1 } ?? bytes.count
                } else {
                    element(into: &complexity)
                }
            }
        }

        /// A start tag: its name and attributes.
        private mutating func element(into complexity: inout SVGComplexity) {
            let name = token()
            guard !name.isEmpty else { return }
            complexity.elements += 1
            let local = name.split(separator: UInt8(ascii: ":")).last.map(Array.init) ?? name
            if local.count > 2, local[0] == UInt8(ascii: "f"), local[1] == UInt8(ascii: "e") {
                complexity.filterPrimitives += 1
            }
            while at < bytes.count {
                skipSpace()
                guard at < bytes.count else { return }
                if bytes[at] == UInt8(ascii: ">") || bytes[at] == UInt8(ascii: "/") {
                    if bytes[at] == UInt8(ascii: ">") { at += 1; return }
                    at += 1
                    continue
                }
                let attribute = token()
                if attribute.isEmpty { at += 1; continue }
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { continue }
                at += 1
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else { continue }
                let quote = bytes[at]
                let start = at + 1
                let end = find(quote, from: start) ?? bytes.count
                at = min(bytes.count, end + 1)
                Self.attribute(attribute, value: bytes[start..<end], into: &complexity)
            }
        }

        private static func attribute(_ name: [UInt8], value: ArraySlice<UInt8>, into complexity: inout SVGComplexity) {
            switch String(decoding: name, as: UTF8.self) {
            case "d":
                complexity.pathCommands += value.count { Self.isPathCommand($0) }
            case "points":
                complexity.pathCommands += (numbers(in: value).count + 1) / 2
            case "stdDeviation":
                complexity.largestBlurDeviation = max(complexity.largestBlurDeviation, numbers(in: value).map(abs).max() ?? 0)
            case "font-size":
                complexity.largestFontSize = max(complexity.largestFontSize, numbers(in: value).map(abs).max() ?? 0)
            case "style":
                for declaration in value.split(separator: UInt8(ascii: ";")) {
                    let parts = declaration.split(separator: UInt8(ascii: ":"), maxSplits: 1)
                    guard parts.count == 2 else { continue }
                    let property = String(decoding: parts[0], as: UTF8.self).trimmingSpaces
                    if property == "font-size" || property == "font" {
                        complexity.largestFontSize = max(complexity.largestFontSize, numbers(in: parts[1]).map(abs).max() ?? 0)
                    }
                }
            default: break
            }
        }

        /// SVG path command letters (exponents, `e`/`E`, are not commands).
        private static func isPathCommand(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "M"), UInt8(ascii: "m"), UInt8(ascii: "L"), UInt8(ascii: "l"), UInt8(ascii: "H"),
                UInt8(ascii: "h"), UInt8(ascii: "V"), UInt8(ascii: "v"), UInt8(ascii: "C"), UInt8(ascii: "c"),
                UInt8(ascii: "S"), UInt8(ascii: "s"), UInt8(ascii: "Q"), UInt8(ascii: "q"), UInt8(ascii: "T"),
                UInt8(ascii: "t"), UInt8(ascii: "A"), UInt8(ascii: "a"), UInt8(ascii: "Z"), UInt8(ascii: "z"):
                return true
            default:
                return false
            }
        }

        /// The numbers in an attribute value (`1e3`, `-.5`, `2.5px`: the unit is dropped).
        static func numbers<Bytes: Collection<UInt8>>(in value: Bytes) -> [Double] {
            var numbers: [Double] = []
            var current: [UInt8] = []
            func flush() {
                if !current.isEmpty, let number = Double(String(decoding: current, as: UTF8.self)) {
                    numbers.append(number)
                }
                current.removeAll(keepingCapacity: true)
            }
            var previous: UInt8 = 0
            for byte in value {
                let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
                let sign = byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                let exponentSign = sign && (previous == UInt8(ascii: "e") || previous == UInt8(ascii: "E")) && !current.isEmpty
                let exponent = (byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")) && !current.isEmpty
                if digit || byte == UInt8(ascii: ".") || exponent || exponentSign {
                    current.append(byte)
                } else if sign {
                    flush()
                    current.append(byte)
                } else {
                    flush()
                }
                previous = byte
            }
            flush()
            return numbers
        }

        private mutating func token() -> [UInt8] {
            let start = at
            while at < bytes.count {
                let byte = bytes[at]
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
                    || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: ">")
                    || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "<")
                {
                    break
                }
                at += 1
            }
            return Array(bytes[start..<at])
        }

        private mutating func skipSpace() {
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x09 || bytes[at] == 0x0A || bytes[at] == 0x0D { at += 1 }
        }

        private func starts(with text: StaticString) -> Bool {
            text.withUTF8Buffer { prefix in
                at + prefix.count <= bytes.count && zip(prefix, bytes[at...]).allSatisfy { $0 == $1 }
            }
        }

        private func find(_ byte: UInt8, from start: Int) -> Int? {
            guard start < bytes.count else { return nil }
            return bytes[start...].firstIndex(of: byte)
        }

        private func find(_ text: StaticString, from start: Int) -> Int? {
            text.withUTF8Buffer { needle -> Int? in
                var index = start
                while index + needle.count <= bytes.count {
                    guard let first = bytes[index...].firstIndex(of: needle[0]) else { return nil }
                    if first + needle.count <= bytes.count, zip(needle, bytes[first...]).allSatisfy({ $0 == $1 }) { return first }
                    index = first + 1
                }
                return nil
            }
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" || $0 == "\n" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\n" }.reversed())
    }
}
