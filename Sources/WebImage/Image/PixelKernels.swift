#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CPixelKernels

/// The instruction set the pixel kernels run on, chosen once per process by CPU feature.
///
/// The resampler's horizontal and vertical passes, its ×2 box reduction, the alpha conversions
/// (premultiply, unpremultiply) and the Gaussian blur's passes (below σ 4 the resampler's, above
/// it the box sums) have AVX2 and AVX-512 (F, BW, VL) versions beside the portable
/// Swift SIMD kernels, which every other machine runs (on x86-64 the compiler lowers them to SSE2)
/// and which are the reference: every path gives the same bytes.
///
/// The environment variable `WEBIMAGE_SIMD` (read once) forces a path: `portable` (also `scalar`
/// or `sse2`), `avx2` or `avx512`. A level the CPU lacks falls back to the best it has; an unknown
/// name is ignored.
///
/// ```swift
/// print(PixelKernels.active)      // avx512 on a CPU with AVX-512 BW and VL
/// print(PixelKernels.available)   // [portable, avx2, avx512]
/// ```
public enum PixelKernels: String, Sendable, CaseIterable, Comparable {
    /// Swift's SIMD types: any CPU.
    case portable
    /// 256-bit registers (x86-64 with AVX2).
    case avx2
    /// 512-bit registers (x86-64 with AVX-512 F, BW and VL).
    case avx512

    /// The paths this CPU runs, portable first.
    public static let available: [PixelKernels] = {
        let best = Int(wik_supported_level())
        return allCases.filter { $0.level <= best }
    }()

    /// The path the kernels take: the best available, or the one `WEBIMAGE_SIMD` names.
    public static let active: PixelKernels = {
        let name = getenv("WEBIMAGE_SIMD").map { String(cString: $0) }
        return select(name, available: available)
    }()

    /// The path for an override `name` (nil: none) on a CPU with `available` paths.
    static func select(_ name: String?, available: [PixelKernels]) -> PixelKernels {
        let best = available.max() ?? .portable
        guard let name = name?.lowercased() else { return best }
        let requested: PixelKernels? = ["scalar", "sse2"].contains(name) ? .portable : PixelKernels(rawValue: name)
        guard let requested else { return best }
        return min(requested, best)
    }

    /// Narrower vectors first.
    public static func < (lhs: PixelKernels, rhs: PixelKernels) -> Bool { lhs.level < rhs.level }

    /// The C kernels' level (`WIK_LEVEL_*`).
    var level: Int {
        switch self {
        case .portable: Int(WIK_LEVEL_PORTABLE)
        case .avx2: Int(WIK_LEVEL_AVX2)
        case .avx512: Int(WIK_LEVEL_AVX512)
        }
    }

    /// The level to pass to the C kernels, or nil when Swift's own kernels run.
    var vectorLevel: Int32? { self == .portable ? nil : Int32(level) }
}
