import FuzzDriver
import WebImageFuzzing

/// libFuzzer calls this with every input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.testOneInput(.jpegScanSkipDifferential, data, size)
}

/// SwiftPM links an executable with `main` defined as `<module>_main`: this is it.
@_cdecl("fuzz_jpeg_scan_skip_differential_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.main(.jpegScanSkipDifferential, argc, argv, fuzzOneInput)
}
