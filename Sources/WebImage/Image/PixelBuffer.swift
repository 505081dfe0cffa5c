import CPixelKernels

/// How the colour channels of a ``PixelBuffer`` relate to its alpha channel.
///
/// Decoders produce ``straight`` by default (``ImageDecodingOptions/alphaMode``), the alpha every
/// built-in format stores, so that semi-transparent colours survive a lossless round trip
/// exactly. Resampling works premultiplied internally (no dark fringes) and returns the mode it
/// was given; crops, flips and rotations move pixels without converting; encoders accept either.
public enum AlphaMode: String, Hashable, Sendable {
    /// Colour is multiplied by alpha (what compositors and the resampler's arithmetic want).
    /// Converting straight → premultiplied → straight loses colour precision where alpha is low.
    case premultiplied
    /// Colour is independent of alpha: what PNG, APNG, GIF and WebP store, and the default for
    /// decoded images.
    case straight
}

/// A bitmap of 8-bit RGBA pixels, row-major, `width * 4` bytes per row (rows are 4-byte aligned).
///
/// Value semantics: copies share storage until one is written.
///
/// ```swift
/// var buffer = PixelBuffer(width: 2, height: 1, alphaMode: .premultiplied)
/// buffer[0, 0] = RGBA8(r: 255, g: 0, b: 0, a: 255)
/// ```
public struct PixelBuffer: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public var alphaMode: AlphaMode
    /// `height` rows of `width * 4` bytes: R, G, B, A.
    public var bytes: [UInt8]

    /// Bytes per row (always `width * 4`).
    public var bytesPerRow: Int { width * 4 }
    /// The buffer's size.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// Wraps existing pixels; `bytes.count` must be `width * height * 4`.
    public init(width: Int, height: Int, alphaMode: AlphaMode, bytes: [UInt8]) {
        precondition(
            width >= 0 && height >= 0 && bytes.count == PixelSize(width: width, height: height).rgbaByteCount,
            "pixel count mismatch")
        self.width = width
        self.height = height
        self.alphaMode = alphaMode
        self.bytes = bytes
    }

    /// A buffer filled with one colour (transparent black by default).
    ///
    /// The size must be one the caller trusts (it traps when `width × height × 4` overflows); for
    /// sizes from input, use ``init(width:height:alphaMode:maxPixelCount:fill:)``.
    public init(width: Int, height: Int, alphaMode: AlphaMode, fill: RGBA8 = .clear) {
        let count = PixelSize(width: width, height: height).pixelCount
        precondition(width >= 0 && height >= 0 && count < Int.max / 4, "pixel buffer size \(width)×\(height) overflows")
        let bytes: [UInt8]
        if fill == .clear {
            bytes = [UInt8](repeating: 0, count: count * 4)
        } else {
            bytes = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
                Self.fill(UnsafeMutableRawBufferPointer(buffer), with: fill)
                initialized = count * 4
            }
        }
        self.init(width: width, height: height, alphaMode: alphaMode, bytes: bytes)
    }

    /// Writes `color` into every pixel of `raw` (whole pixels: `raw.count` is a multiple of 4): one
    /// 4-byte store per pixel, r, g, b, a in memory order on any byte order; transparent black as
    /// one `memset`.
    package static func fill(_ raw: UnsafeMutableRawBufferPointer, with color: RGBA8) {
        let pattern = (UInt32(color.r) | UInt32(color.g) << 8 | UInt32(color.b) << 16 | UInt32(color.a) << 24).littleEndian
        if pattern == 0 {
            raw.initializeMemory(as: UInt8.self, repeating: 0)
            return
        }
        for offset in stride(from: 0, to: raw.count, by: 4) { raw.storeBytes(of: pattern, toByteOffset: offset, as: UInt32.self) }
    }

    /// Creates a buffer by letting `body` write every byte of uninitialised storage.
    ///
    /// The size must be one the caller trusts (it traps when `width × height × 4` overflows); for
    /// sizes from input, use ``init(width:height:alphaMode:maxPixelCount:initializingWith:)``.
    public init(
        width: Int, height: Int, alphaMode: AlphaMode,
        initializingWith body: (UnsafeMutableBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        let count = PixelSize(width: width, height: height).rgbaByteCount
        precondition(width >= 0 && height >= 0 && count < Int.max, "pixel buffer size \(width)×\(height) overflows")
        let bytes = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try body(buffer)
            initialized = count
        }
        self.init(width: width, height: height, alphaMode: alphaMode, bytes: bytes)
    }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> RGBA8 {
        get {
            let i = (y * width + x) * 4
            return RGBA8(r: bytes[i], g: bytes[i + 1], b: bytes[i + 2], a: bytes[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            bytes[i] = newValue.r
            bytes[i + 1] = newValue.g
            bytes[i + 2] = newValue.b
            bytes[i + 3] = newValue.a
        }
    }

    /// Whether every pixel has alpha 255.
    public var isOpaque: Bool {
        bytes.withUnsafeBytes { raw in
            // Two pixels per 64-bit word, AND-ed over blocks (a loop the compiler vectorises), with
            // an early exit per block; the odd pixel at the end, if any, on its own.
            let alphaMask: UInt64 = 0xFF00_0000_FF00_0000
            let words = raw.count / 8
            var start = 0
            while start < words {
                let end = min(words, start + 1024)
                var all = UInt64.max
                for index in start..<end { all &= UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self)) }
                if all & alphaMask != alphaMask { return false }
                start = end
            }
            var index = words * 8 + 3
            while index < raw.count {
                if raw[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }

    /// The same pixels with colour multiplied by alpha (rounded to nearest).
    /// An opaque buffer is only relabelled (one read pass, no copy).
    public func premultiplied() -> PixelBuffer {
        guard alphaMode == .straight else { return self }
        var copy = self
        copy.alphaMode = .premultiplied
        if isOpaque { return copy }
        copy.bytes.withUnsafeMutableBufferPointer { AlphaConversion.premultiply($0) }
        return copy
    }

    /// The same pixels with colour divided by alpha (rounded to nearest; transparent pixels are 0).
    /// An opaque buffer is only relabelled (one read pass, no copy).
    public func unpremultiplied() -> PixelBuffer {
        guard alphaMode == .premultiplied else { return self }
        var copy = self
        copy.alphaMode = .straight
        if isOpaque { return copy }
        copy.bytes.withUnsafeMutableBufferPointer { AlphaConversion.unpremultiply($0) }
        return copy
    }

    /// The same pixels in the requested alpha mode.
    public func converted(to mode: AlphaMode) -> PixelBuffer {
        mode == .premultiplied ? premultiplied() : unpremultiplied()
    }
}

/// One 8-bit RGBA pixel.
public struct RGBA8: Hashable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }
    public static let clear = RGBA8(r: 0, g: 0, b: 0, a: 0)
    public static let black = RGBA8(r: 0, g: 0, b: 0)
    public static let white = RGBA8(r: 255, g: 255, b: 255)
}

/// Alpha premultiplication kernels: Swift's, or the vector kernels of `kernels` (the same bytes).
enum AlphaConversion {
    static func premultiply(_ p: UnsafeMutableBufferPointer<UInt8>, kernels: PixelKernels = .active) {
        if let level = kernels.vectorLevel, let base = p.baseAddress {
            return wik_premultiply(level, base, p.count)
        }
        var i = 0
        while i + 3 < p.count {
            let a = UInt32(p[i + 3])
            if a != 255 {
                // (c * a + 127) / 255, exact for all 8-bit inputs.
                for c in 0..<3 {
                    let t = UInt32(p[i + c]) * a + 128
                    p[i + c] = UInt8((t + (t >> 8)) >> 8)
                }
            }
            i += 4
        }
    }

    static func unpremultiply(_ p: UnsafeMutableBufferPointer<UInt8>, kernels: PixelKernels = .active) {
        if let level = kernels.vectorLevel, let base = p.baseAddress {
            return wik_unpremultiply(level, base, p.count)
        }
        var i = 0
        while i + 3 < p.count {
            let a = UInt32(p[i + 3])
            if a == 0 {
                p[i] = 0
                p[i + 1] = 0
                p[i + 2] = 0
            } else if a != 255 {
                for c in 0..<3 {
                    p[i + c] = UInt8(min(255, (UInt32(p[i + c]) * 255 + a / 2) / a))
                }
            }
            i += 4
        }
    }
}
