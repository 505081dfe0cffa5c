public import WebImage
import Synchronization

/// A colour converter that converts nothing but keeps the CMYK samples a decoder hands it (the
/// decoder then falls back to its formula): how tests get a CMYK JPEG's raw inks for a reference.
///
/// ```swift
/// let recorder = CMYKSampleRecorder()
/// _ = try JPEGCoder(colorConverter: recorder).decode(data, options: ImageDecodingOptions())
/// let inks = recorder.recorded?.samples
/// ```
public final class CMYKSampleRecorder: ColorConverting {
    private let last = Mutex<(samples: [UInt8], inverted: Bool)?>(nil)

    public init() {}

    /// The samples of the last CMYK conversion asked for, and whether they were stored inverted.
    public var recorded: (samples: [UInt8], inverted: Bool)? { last.withLock { $0 } }

    public func convertToSRGB(_ image: Image) throws -> Image { image }

    public func convertCMYKToSRGB(_ samples: UnsafeMutableBufferPointer<UInt8>, profile: ColorProfile?, inverted: Bool) -> Bool {
        last.withLock { $0 = (Array(samples), inverted) }
        return false
    }
}
