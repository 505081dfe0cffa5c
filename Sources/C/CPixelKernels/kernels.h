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
void wik_blur_add_rows_avx2(int32_t *, const int32_t *, const int32_t *, ptrdiff_t, int32_t *);
void wik_blur_add_rows_avx512(int32_t *, const int32_t *, const int32_t *, ptrdiff_t, int32_t *);
void wik_blur_add_byte_rows_avx2(int32_t *, const uint8_t *, const uint8_t *, ptrdiff_t, int32_t *);
void wik_blur_add_byte_rows_avx512(int32_t *, const uint8_t *, const uint8_t *, ptrdiff_t, int32_t *);
void wik_blur_store_avx2(const int32_t *, ptrdiff_t, uint32_t, uint8_t *);
void wik_blur_store_avx512(const int32_t *, ptrdiff_t, uint32_t, uint8_t *);
void wik_blur_horizontal_avx2(uint8_t *, ptrdiff_t, ptrdiff_t, ptrdiff_t, const ptrdiff_t *, uint32_t, int32_t *);
void wik_blur_horizontal_avx512(uint8_t *, ptrdiff_t, ptrdiff_t, ptrdiff_t, const ptrdiff_t *, uint32_t, int32_t *);
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

/// The blur's running sums from `start` on: sum += added − removed (wrapping, as Swift's &+ and
/// &−), copied to `copy` when it is not NULL.
static inline void wik_blur_add_rows_tail(int32_t *sum, const int32_t *added, const int32_t *removed, ptrdiff_t count,
                                          int32_t *copy, ptrdiff_t start) {
    for (ptrdiff_t i = start; i < count; i++) {
        sum[i] = (int32_t)((uint32_t)sum[i] + (uint32_t)added[i] - (uint32_t)removed[i]);
        if (copy) copy[i] = sum[i];
    }
}

/// ``wik_blur_add_rows_tail`` with byte rows added and removed.
static inline void wik_blur_add_byte_rows_tail(int32_t *sum, const uint8_t *added, const uint8_t *removed,
                                               ptrdiff_t count, int32_t *copy, ptrdiff_t start) {
    for (ptrdiff_t i = start; i < count; i++) {
        sum[i] = (int32_t)((uint32_t)sum[i] + added[i] - removed[i]);
        if (copy) copy[i] = sum[i];
    }
}

/// A blur sum (non-negative) to its level: (sum · multiplier + 2^31) >> 32.
static inline int32_t wik_blur_level(int32_t sum, uint32_t multiplier) {
    return (int32_t)(((int64_t)sum * multiplier + ((int64_t)1 << 31)) >> 32);
}

/// The blur's store for the pixels from byte `start` on, one at a time: levels clamped to 0…255,
/// colour to at most alpha.
static inline void wik_blur_store_tail(const int32_t *values, ptrdiff_t count, uint32_t multiplier, uint8_t *output,
                                       ptrdiff_t start) {
    for (ptrdiff_t i = start; i + 4 <= count; i += 4) {
        int32_t alpha = wik_blur_level(values[i + 3], multiplier);
        alpha = alpha < 0 ? 0 : (alpha > 255 ? 255 : alpha);
        for (int c = 0; c < 3; c++) {
            int32_t value = wik_blur_level(values[i + c], multiplier);
            value = value < 0 ? 0 : value;
            output[i + c] = (uint8_t)(value < alpha ? value : alpha);
        }
        output[i + 3] = (uint8_t)alpha;
    }
}

#endif
