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

// A level the CPU lacks (or the portable one, which Swift runs itself) is a caller's bug.
#define WIK_DISPATCH(level, avx2, avx512)  \
    switch (level) {                        \
    case WIK_LEVEL_AVX2: avx2; break;       \
    case WIK_LEVEL_AVX512: avx512; break;   \
    default: abort();                       \
    }

void wik_resample_horizontal(int level, const uint8_t *source, ptrdiff_t sourceRowBytes, uint8_t *output,
                             ptrdiff_t outputRowBytes, ptrdiff_t rows, ptrdiff_t width, const int16_t *taps,
                             ptrdiff_t tapStride, const ptrdiff_t *starts, const ptrdiff_t *counts) {
#if defined(__x86_64__)
    WIK_DISPATCH(level,
                 wik_horizontal_avx2(source, sourceRowBytes, output, outputRowBytes, rows, width, taps, tapStride,
                                     starts, counts),
                 wik_horizontal_avx512(source, sourceRowBytes, output, outputRowBytes, rows, width, taps, tapStride,
                                       starts, counts))
#else
    abort();
#endif
}

void wik_resample_vertical_row(int level, const uint8_t *first, ptrdiff_t rowBytes, const int16_t *taps,
                               ptrdiff_t count, uint8_t *output) {
#if defined(__x86_64__)
    WIK_DISPATCH(level, wik_vertical_avx2(first, rowBytes, rowBytes, taps, count, output),
                 wik_vertical_avx512(first, rowBytes, rowBytes, taps, count, output))
#else
    abort();
#endif
}

void wik_box_reduce2_row(int level, const uint8_t *first, const uint8_t *second, ptrdiff_t width, uint8_t *output) {
#if defined(__x86_64__)
    WIK_DISPATCH(level, wik_box_reduce2_avx2(first, second, width, output),
                 wik_box_reduce2_avx512(first, second, width, output))
#else
    abort();
#endif
}

// The alpha conversions are memory-bound: AVX-512 runs the AVX2 kernels.
void wik_premultiply(int level, uint8_t *pixels, ptrdiff_t count) {
#if defined(__x86_64__)
    WIK_DISPATCH(level, wik_premultiply_avx2(pixels, count), wik_premultiply_avx2(pixels, count))
#else
    abort();
#endif
}

void wik_unpremultiply(int level, uint8_t *pixels, ptrdiff_t count) {
#if defined(__x86_64__)
    WIK_DISPATCH(level, wik_unpremultiply_avx2(pixels, count), wik_unpremultiply_avx2(pixels, count))
#else
    abort();
#endif
}
