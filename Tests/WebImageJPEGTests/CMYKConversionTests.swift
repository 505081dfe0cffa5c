import Testing

@testable import WebImageJPEG

@Suite("CMYK conversion")
struct CMYKConversionTests {
    func convert(_ cmyk: [UInt8], inverted: Bool) -> [UInt8] {
        var pixels = cmyk
        pixels.withUnsafeMutableBufferPointer { CMYKConversion.convertToRGBA($0, inverted: inverted) }
        return pixels
    }

    @Test("plain CMYK: no ink is white, full K is black, full C is cyan")
    func plain() {
        #expect(convert([0, 0, 0, 0], inverted: false) == [255, 255, 255, 255])
        #expect(convert([0, 0, 0, 255], inverted: false) == [0, 0, 0, 255])
        #expect(convert([255, 0, 0, 0], inverted: false) == [0, 255, 255, 255])
        // nk = 127: 127 − (100·127 + 128 + ((100·127 + 128) >> 8)) >> 8 = 127 − 50 = 77.
        #expect(convert([100, 0, 255, 128], inverted: false) == [77, 127, 0, 255])
    }

    @Test("Adobe CMYK is stored inverted")
    func inverted() {
        #expect(convert([255, 255, 255, 255], inverted: true) == [255, 255, 255, 255])
        #expect(convert([255, 255, 255, 0], inverted: true) == [0, 0, 0, 255])
        #expect(convert([155, 255, 0, 127], inverted: true) == [77, 127, 0, 255])
    }
}
