import Foundation
import Testing
import WebImage
import WebImageSVG

/// The markup is counted before librsvg runs, and a document over a limit is `tooLarge` naming it.
@Suite struct SVGComplexityTests {
    static func document(_ body: String) -> Data {
        Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\">\(body)</svg>".utf8)
    }

    @Test func countsElementsPathCommandsFiltersBlursAndFonts() {
        let complexity = SVGComplexity(
            Self.document(
                """
                <!-- <rect/> <rect/> in a comment --><![CDATA[ <rect/> ]]>
                <defs><filter id="f"><feGaussianBlur stdDeviation="3 12.5"/><feOffset dx="2"/></filter></defs>
                <path d="M0 0L10 10 l1e2-3 H5 v2 c1 2 3 4 5 6 s1 1 2 2 Q1 1 2 2 t3 3 A1 1 0 0 1 5 5 z"/>
                <polyline points="0,0 10,10 20,0"/>
                <text font-size="24px" style="fill: red; font: italic 40px serif">Hi</text>
                </svg>
                """))
        // svg, defs, filter, feGaussianBlur, feOffset, path, polyline, text
        #expect(complexity.elements == 8)
        #expect(complexity.filterPrimitives == 2)
        #expect(complexity.pathCommands == 11 + 3)
        #expect(complexity.largestBlurDeviation == 12.5)
        #expect(complexity.largestFontSize == 40)
    }

    @Test func eachLimitIsNamedWhenExceeded() throws {
        var limits = SVGComplexity.Limits.standard
        limits.maxElements = 3
        let many = Self.document(String(repeating: "<rect width=\"1\" height=\"1\"/>", count: 5))
        var error = try #require(throws: WebImageError.self) { try SVGCoder(complexityLimits: limits).decode(many) }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("elements: 6, over the limit of 3"), "\(error)")

        error = try #require(throws: WebImageError.self) {
            try SVGCoder().decode(Self.document("<filter id=\"f\"><feGaussianBlur stdDeviation=\"5000\"/></filter>"))
        }
        #expect(error.message.contains("blur deviation"), "\(error)")

        // Drawing work grows with the output area: 20,000 elements render at 100 × 100, not at 16 MP.
        let crowd = Self.document(String(repeating: "<circle cx=\"5\" cy=\"5\" r=\"4\"/>", count: 20_000))
        #expect(try SVGCoder().decode(crowd).pixelSize == PixelSize(width: 100, height: 100))
        var large = ImageDecodingOptions()
        large.thumbnailPixelSize = PixelSize(width: 4_000, height: 4_000)
        error = try #require(throws: WebImageError.self) { try SVGCoder().decode(crowd, options: large) }
        #expect(error.message.contains("drawing work"), "\(error)")

        let filters = Self.document(String(repeating: "<filter><feFlood/><feBlend/></filter>", count: 60))
        error = try #require(throws: WebImageError.self) { try SVGCoder().decode(filters) }
        #expect(error.message.contains("filter primitives: 120"), "\(error)")

        #expect(throws: Never.self) { try SVGCoder(complexityLimits: .unlimited).decode(many) }
    }

    @Test func theHeaderReaderChecksTheLimitsToo() throws {
        var limits = SVGComplexity.Limits.standard
        limits.maxPathCommands = 10
        let path = Self.document("<path d=\"\(String(repeating: "L1 1 ", count: 20))\"/>")
        let error = try #require(throws: WebImageError.self) { try SVGCoder(complexityLimits: limits).readHeader(path) }
        #expect(error.code == .tooLarge)
        #expect(error.message.contains("path commands: 20"), "\(error)")
    }

    @Test func truncatedAndOddMarkupIsCountedWithoutTrapping() {
        for text in ["<", "<svg", "<svg a=", "<svg a=\"1", "<!--", "<![CDATA[", "<svg d='M", "<<>>", "<svg font-size=\"-\"/>"] {
            let complexity = SVGComplexity(Data(text.utf8))
            #expect(complexity.elements <= 1)
        }
    }
}
