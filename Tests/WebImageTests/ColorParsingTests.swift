import Testing
import WebImage

@Suite struct ColorParsingTests {
    @Test func hexInEveryLengthWithAndWithoutHash() {
        #expect(RGBA8(parsing: "#f80") == RGBA8(r: 255, g: 136, b: 0, a: 255))
        #expect(RGBA8(parsing: "ff8800") == RGBA8(r: 255, g: 136, b: 0, a: 255))
        #expect(RGBA8(parsing: "#00000080") == RGBA8(r: 0, g: 0, b: 0, a: 128))
        #expect(RGBA8(parsing: "ABCDEF") == RGBA8(r: 0xAB, g: 0xCD, b: 0xEF, a: 255))
    }

    @Test func basicNamesInAnyCase() {
        #expect(RGBA8(parsing: "Orange") == RGBA8(r: 255, g: 165, b: 0, a: 255))
        #expect(RGBA8(parsing: "transparent") == .clear)
        #expect(RGBA8(parsing: "GREY") == RGBA8(parsing: "gray"))
    }

    @Test func refusesWhatIsNeitherAHexColourNorAName() {
        for text in ["", "#", "ff", "#ff88", "fffff", "ggg", "#1234567", "rebeccapurple", "12 34 56", "##fff"] {
            #expect(RGBA8(parsing: text) == nil, "\(text)")
        }
    }
}
