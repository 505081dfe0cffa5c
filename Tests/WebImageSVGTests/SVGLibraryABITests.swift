import CSVGABICheck
import Testing

/// The SVG shim declares the librsvg, GLib and cairo functions it loads on first use; CSVGABICheck
/// compiles those declarations beside the libraries' headers and does not build on a difference.
@Suite("The SVG shim's declarations of librsvg")
struct SVGLibraryABITests {
    @Test func everyFunctionTheShimLoadsIsCompared() {
        // 14 compared exactly, 2 through librsvg's structs' layouts: all 16 the shim resolves.
        #expect(webimage_svg_abi_checked_functions() == 16)
    }
}
