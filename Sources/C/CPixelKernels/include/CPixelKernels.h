// Pixel kernels at the machine's vector width (issue 29): AVX2 and AVX-512 versions of the
// resampler's fixed-point passes, its ×2 box reduction, the alpha conversions and the blur's box
// passes, chosen at run time.
//
// Every function computes exactly what the portable Swift kernels compute (same Int16 weights,
// same integer sums, same rounding and clamping), so the bytes are identical on every path. The
// `level` argument is one of the WIK_LEVEL_* values and must be one that wik_supported_level()
// allows; the portable level is never passed here (Swift runs its own kernels for it).
#ifndef C_PIXEL_KERNELS_H
#define C_PIXEL_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#define WIK_LEVEL_PORTABLE 0
#define WIK_LEVEL_AVX2 1
#define WIK_LEVEL_AVX512 2

/// The highest level this CPU and OS run: AVX-512 needs F, BW and VL with the ZMM state enabled;
/// 0 off x86-64.
int wik_supported_level(void);

/// The horizontal pass over `rows` rows: output pixel x of each row is the sum over
/// `counts[x]` source pixels from `starts[x]` of pixel × taps[x * tapStride + k], then
/// (sum + 2^13) >> 14 clamped to 0…255 and colour to at most alpha.
void wik_resample_horizontal(
    int level, const uint8_t *source, ptrdiff_t sourceRowBytes, uint8_t *output, ptrdiff_t outputRowBytes,
    ptrdiff_t rows, ptrdiff_t width, const int16_t *taps, ptrdiff_t tapStride, const ptrdiff_t *starts,
    const ptrdiff_t *counts);

/// One output row of the vertical pass: byte i is the sum over `count` rows from `first`
/// (`rowBytes` apart) of byte × taps[k], rounded and clamped as the horizontal pass.
void wik_resample_vertical_row(
    int level, const uint8_t *first, ptrdiff_t rowBytes, const int16_t *taps, ptrdiff_t count, uint8_t *output);

/// One output row of a 2 × 2 box reduction of RGBA rows `width` pixels wide: each output pixel is
/// (sum + count / 2) / count over its block; `second` is NULL for a last, lone source row, and an
/// odd last column averages the pixels it has.
void wik_box_reduce2_row(int level, const uint8_t *first, const uint8_t *second, ptrdiff_t width, uint8_t *output);

/// RGBA colour multiplied by alpha in place: (c · a + 128 + ((c · a + 128) >> 8)) >> 8.
void wik_premultiply(int level, uint8_t *pixels, ptrdiff_t count);

/// RGBA colour divided by alpha in place: min(255, (c · 255 + a / 2) / a); 0 where alpha is 0.
void wik_unpremultiply(int level, uint8_t *pixels, ptrdiff_t count);

/// One step of the blur's vertical running sum over `count` 32-bit lanes: sum += added − removed
/// (wrapping), then the new sum copied to `copy` unless it is NULL.
void wik_blur_add_rows(int level, int32_t *sum, const int32_t *added, const int32_t *removed, ptrdiff_t count,
                       int32_t *copy);

/// ``wik_blur_add_rows`` with 8-bit rows added and removed.
void wik_blur_add_byte_rows(int level, int32_t *sum, const uint8_t *added, const uint8_t *removed, ptrdiff_t count,
                            int32_t *copy);

/// `count` bytes (whole RGBA pixels) of blur sums to pixels: each level is
/// (sum · multiplier + 2^31) >> 32 (sums are non-negative), clamped to 0…255, colour to at most alpha.
void wik_blur_store(int level, const int32_t *values, ptrdiff_t count, uint32_t multiplier, uint8_t *output);

/// The blur's three horizontal box passes over `rows` RGBA rows `width` pixels wide, in place: each
/// pass replaces a pixel by the sum of the 2r + 1 pixels around it (radii[0], [1], [2]; the edge
/// pixels repeat), then the sums are stored as ``wik_blur_store`` does. `scratch` holds
/// 32 · width 32-bit values (any alignment).
void wik_blur_horizontal(int level, uint8_t *pixels, ptrdiff_t rowBytes, ptrdiff_t rows, ptrdiff_t width,
                         const ptrdiff_t *radii, uint32_t multiplier, int32_t *scratch);

#endif
