// Run-time choice of kernel: the CPU's features, and the entry points that route each call to
// the level the caller chose (Swift checks it against wik_supported_level first).
#include <stdlib.h>
#include "kernels.h"

int wik_supported_level(void) {
#if defined(__x86_64__)
    // __builtin_cpu_supports also checks that the OS saves the YMM/ZMM registers (XGETBV).
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl"))
        return WIK_LEVEL_AVX512;
    if (__builtin_cpu_supports("avx2")) return WIK_LEVEL_AVX2;
#endif
    return WIK_LEVEL_PORTABLE;
}

// A level the CPU lacks (or the portable one, which Swift runs itself) is a caller's bug; off
// x86-64 every level is (the vector kernels are not compiled, and the calls drop out).
#if defined(__x86_64__)
#define WIK_DISPATCH(level, avx2, avx512)  \
    switch (level) {                        \
    case WIK_LEVEL_AVX2: avx2; break;       \
    case WIK_LEVEL_AVX512: avx512; break;   \
    default: abort();                       \
    }
#else
#define WIK_DISPATCH(level, avx2, avx512) ((void)(level), abort())
#endif

void wik_resample_horizontal(int level, const uint8_t *source, ptrdiff_t sourceRowBytes, uint8_t *output,
                             ptrdiff_t outputRowBytes, ptrdiff_t rows, ptrdiff_t width, const int16_t *taps,
                             ptrdiff_t tapStride, const ptrdiff_t *starts, const ptrdiff_t *counts) {
    WIK_DISPATCH(level,
                 wik_horizontal_avx2(source, sourceRowBytes, output, outputRowBytes, rows, width, taps, tapStride,
                                     starts, counts),
                 wik_horizontal_avx512(source, sourceRowBytes, output, outputRowBytes, rows, width, taps, tapStride,
                                       starts, counts));
}

void wik_resample_vertical_row(int level, const uint8_t *first, ptrdiff_t rowBytes, const int16_t *taps,
                               ptrdiff_t count, uint8_t *output) {
    WIK_DISPATCH(level, wik_vertical_avx2(first, rowBytes, rowBytes, taps, count, output),
                 wik_vertical_avx512(first, rowBytes, rowBytes, taps, count, output));
}

void wik_box_reduce2_row(int level, const uint8_t *first, const uint8_t *second, ptrdiff_t width, uint8_t *output) {
    WIK_DISPATCH(level, wik_box_reduce2_avx2(first, second, width, output),
                 wik_box_reduce2_avx512(first, second, width, output));
}

// The alpha conversions are memory-bound: AVX-512 runs the AVX2 kernels.
void wik_premultiply(int level, uint8_t *pixels, ptrdiff_t count) {
    WIK_DISPATCH(level, wik_premultiply_avx2(pixels, count), wik_premultiply_avx2(pixels, count));
}

void wik_unpremultiply(int level, uint8_t *pixels, ptrdiff_t count) {
    WIK_DISPATCH(level, wik_unpremultiply_avx2(pixels, count), wik_unpremultiply_avx2(pixels, count));
}

// The blur's box passes (blur_avx2.c, blur_avx512.c).
void wik_blur_add_rows(int level, int32_t *sum, const int32_t *added, const int32_t *removed, ptrdiff_t count,
                       int32_t *copy) {
    WIK_DISPATCH(level, wik_blur_add_rows_avx2(sum, added, removed, count, copy),
                 wik_blur_add_rows_avx512(sum, added, removed, count, copy));
}

void wik_blur_add_byte_rows(int level, int32_t *sum, const uint8_t *added, const uint8_t *removed, ptrdiff_t count,
                            int32_t *copy) {
    WIK_DISPATCH(level, wik_blur_add_byte_rows_avx2(sum, added, removed, count, copy),
                 wik_blur_add_byte_rows_avx512(sum, added, removed, count, copy));
}

void wik_blur_store(int level, const int32_t *values, ptrdiff_t count, uint32_t multiplier, uint8_t *output) {
    WIK_DISPATCH(level, wik_blur_store_avx2(values, count, multiplier, output),
                 wik_blur_store_avx512(values, count, multiplier, output));
}

void wik_blur_horizontal(int level, uint8_t *pixels, ptrdiff_t rowBytes, ptrdiff_t rows, ptrdiff_t width,
                         const ptrdiff_t *radii, uint32_t multiplier, int32_t *scratch) {
    WIK_DISPATCH(level, wik_blur_horizontal_avx2(pixels, rowBytes, rows, width, radii, multiplier, scratch),
                 wik_blur_horizontal_avx512(pixels, rowBytes, rows, width, radii, multiplier, scratch));
}
