// The per-level kernels behind the dispatcher (dispatch.c), and the scalar arithmetic their
// tails share. Each kernel file compiles its functions for one instruction set with
// __attribute__((target)), so the rest of the build stays baseline x86-64.
#ifndef C_PIXEL_KERNELS_INTERNAL_H
#define C_PIXEL_KERNELS_INTERNAL_H

#include "CPixelKernels.h"

/// A fixed-point sum rounded to a byte: (sum + 2^13) >> 14, clamped to 0…255.
static inline int32_t wik_round_clamp(int32_t sum) {
    int32_t value = (sum + (1 << 13)) >> 14;
    return value < 0 ? 0 : (value > 255 ? 255 : value);
}

/// Writes one RGBA pixel from four sums, colour clamped to at most alpha.
static inline void wik_store_pixel(const int32_t sums[4], uint8_t *out) {
    int32_t alpha = wik_round_clamp(sums[3]);
    for (int c = 0; c < 3; c++) {
        int32_t value = wik_round_clamp(sums[c]);
        out[c] = (uint8_t)(value < alpha ? value : alpha);
    }
    out[3] = (uint8_t)alpha;
}

#if defined(__x86_64__)
void wik_horizontal_avx2(const uint8_t *, ptrdiff_t, uint8_t *, ptrdiff_t, ptrdiff_t, ptrdiff_t, const int16_t *,
                         ptrdiff_t, const ptrdiff_t *, const ptrdiff_t *);
void wik_horizontal_avx512(const uint8_t *, ptrdiff_t, uint8_t *, ptrdiff_t, ptrdiff_t, ptrdiff_t, const int16_t *,
                           ptrdiff_t, const ptrdiff_t *, const ptrdiff_t *);
// Vertical: source rows `stride` bytes apart, the first `length` bytes of the row.
void wik_vertical_avx2(const uint8_t *, ptrdiff_t, ptrdiff_t, const int16_t *, ptrdiff_t, uint8_t *);
void wik_vertical_avx512(const uint8_t *, ptrdiff_t, ptrdiff_t, const int16_t *, ptrdiff_t, uint8_t *);
void wik_box_reduce2_avx2(const uint8_t *, const uint8_t *, ptrdiff_t, uint8_t *);
void wik_box_reduce2_avx512(const uint8_t *, const uint8_t *, ptrdiff_t, uint8_t *);
void wik_premultiply_avx2(uint8_t *, ptrdiff_t);
void wik_unpremultiply_avx2(uint8_t *, ptrdiff_t);
#endif

/// The vertical pass for the bytes from `start` to `end` of a row, one byte at a time.
static inline void wik_vertical_tail(const uint8_t *first, ptrdiff_t rowBytes, const int16_t *taps, ptrdiff_t count,
                                     uint8_t *output, ptrdiff_t start, ptrdiff_t end) {
    for (ptrdiff_t i = start; i < end; i += 4) {
        int32_t sums[4] = {0, 0, 0, 0};
        const uint8_t *pixel = first + i;
        for (ptrdiff_t k = 0; k < count; k++, pixel += rowBytes) {
            for (int c = 0; c < 4; c++) sums[c] += (int32_t)pixel[c] * taps[k];
        }
        wik_store_pixel(sums, output + i);
    }
}

/// The box reduction for output pixels `start` to `outWidth`, one at a time.
static inline void wik_box_reduce2_tail(const uint8_t *first, const uint8_t *second, ptrdiff_t width, uint8_t *output,
                                        ptrdiff_t start) {
    ptrdiff_t outWidth = (width + 1) / 2;
    for (ptrdiff_t x = start; x < outWidth; x++) {
        ptrdiff_t columns = (2 * x + 1 < width) ? 2 : 1;
        uint32_t count = (uint32_t)(columns * (second ? 2 : 1));
        for (int c = 0; c < 4; c++) {
            uint32_t sum = 0;
            for (ptrdiff_t j = 0; j < columns; j++) {
                sum += first[(2 * x + j) * 4 + c];
                if (second) sum += second[(2 * x + j) * 4 + c];
            }
            output[x * 4 + c] = (uint8_t)((sum + count / 2) / count);
        }
    }
}

#endif
