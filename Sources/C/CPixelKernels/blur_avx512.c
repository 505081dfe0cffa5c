// The blur's box passes with AVX-512 (F + BW): the AVX2 kernels' arithmetic (blur_avx2.c) on
// 512-bit registers — sixteen lanes of the vertical sums at once, four rows at once in the
// horizontal passes — handing what is left over to the AVX2 kernels.
#if defined(__x86_64__)
#include "vectors.h"

AVX512 void wik_blur_add_rows_avx512(int32_t *sum, const int32_t *added, const int32_t *removed, ptrdiff_t count,
                                     int32_t *copy) {
    ptrdiff_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m512i value = _mm512_sub_epi32(_mm512_add_epi32(_mm512_loadu_si512(sum + i), _mm512_loadu_si512(added + i)),
                                         _mm512_loadu_si512(removed + i));
        _mm512_storeu_si512(sum + i, value);
        if (copy) _mm512_storeu_si512(copy + i, value);
    }
    wik_blur_add_rows_avx2(sum + i, added + i, removed + i, count - i, copy ? copy + i : NULL);
}

AVX512 void wik_blur_add_byte_rows_avx512(int32_t *sum, const uint8_t *added, const uint8_t *removed, ptrdiff_t count,
                                          int32_t *copy) {
    ptrdiff_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m512i plus = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(added + i)));
        __m512i minus = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(removed + i)));
        __m512i value = _mm512_sub_epi32(_mm512_add_epi32(_mm512_loadu_si512(sum + i), plus), minus);
        _mm512_storeu_si512(sum + i, value);
        if (copy) _mm512_storeu_si512(copy + i, value);
    }
    wik_blur_add_byte_rows_avx2(sum + i, added + i, removed + i, count - i, copy ? copy + i : NULL);
}

/// Sixteen non-negative sums to levels: (sum · multiplier + 2^31) >> 32.
AVX512 static inline __m512i blur_levels512(__m512i sums, __m512i multiplier) {
    const __m512i half = _mm512_set1_epi64((long long)1 << 31);
    __m512i even = _mm512_srli_epi64(_mm512_add_epi64(_mm512_mul_epu32(sums, multiplier), half), 32);
    __m512i odd = _mm512_add_epi64(_mm512_mul_epu32(_mm512_srli_epi64(sums, 32), multiplier), half);
    return _mm512_mask_blend_epi32(0xAAAA, even, odd);
}

AVX512 void wik_blur_store_avx512(const int32_t *values, ptrdiff_t count, uint32_t multiplier, uint8_t *output) {
    const __m512i m = _mm512_set1_epi32((int32_t)multiplier);
    // After the packs lane j holds pixels j, 4 + j, 8 + j, 12 + j: put back in order.
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    ptrdiff_t i = 0;
    for (; i + 64 <= count; i += 64) {
        __m512i levels[4];
        for (int k = 0; k < 4; k++) levels[k] = blur_levels512(_mm512_loadu_si512(values + i + 16 * k), m);
        __m512i bytes = pack_pixels512(levels[0], levels[1], levels[2], levels[3]);
        _mm512_storeu_si512(output + i, _mm512_permutexvar_epi32(order, bytes));
    }
    wik_blur_store_avx2(values + i, count - i, multiplier, output + i);
}

/// One box pass over `n` positions of four rows' pixels (see box_pass256 in blur_avx2.c).
AVX512 static void box_pass512(const __m512i *src, __m512i *dst, ptrdiff_t n, ptrdiff_t r) {
    __m512i sum = _mm512_setzero_si512();
    for (ptrdiff_t i = -r; i <= r; i++)
        sum = _mm512_add_epi32(sum, _mm512_loadu_si512(src + (i < 0 ? 0 : (i < n ? i : n - 1))));
    ptrdiff_t interiorStart = r < n ? r : n, interiorEnd = n - r - 1 > interiorStart ? n - r - 1 : interiorStart;
    ptrdiff_t p = 0;
    for (; p < interiorStart; p++) {
        _mm512_storeu_si512(dst + p, sum);
        ptrdiff_t add = p + r + 1 < n ? p + r + 1 : n - 1, remove = p - r > 0 ? p - r : 0;
        sum = _mm512_sub_epi32(_mm512_add_epi32(sum, _mm512_loadu_si512(src + add)), _mm512_loadu_si512(src + remove));
    }
    for (; p < interiorEnd; p++) {
        _mm512_storeu_si512(dst + p, sum);
        sum = _mm512_sub_epi32(_mm512_add_epi32(sum, _mm512_loadu_si512(src + p + r + 1)),
                               _mm512_loadu_si512(src + p - r));
    }
    for (; p < n; p++) {
        _mm512_storeu_si512(dst + p, sum);
        ptrdiff_t add = p + r + 1 < n ? p + r + 1 : n - 1, remove = p - r > 0 ? p - r : 0;
        sum = _mm512_sub_epi32(_mm512_add_epi32(sum, _mm512_loadu_si512(src + add)), _mm512_loadu_si512(src + remove));
    }
}

AVX512 void wik_blur_horizontal_avx512(uint8_t *pixels, ptrdiff_t rowBytes, ptrdiff_t rows, ptrdiff_t width,
                                       const ptrdiff_t *radii, uint32_t multiplier, int32_t *scratch) {
    __m512i *a = (__m512i *)scratch, *b = a + width;
    const __m512i m = _mm512_set1_epi32((int32_t)multiplier);
    for (ptrdiff_t y = 0; y < rows; y += 4) {
        // Past the last row the lanes repeat it (and write it again, the same bytes).
        uint8_t *row[4];
        for (int r = 0; r < 4; r++) row[r] = pixels + (y + r < rows ? y + r : rows - 1) * rowBytes;
        ptrdiff_t x = 0;
        for (; x + 4 <= width; x += 4) {
            // A 4 × 4 transpose of pixels: register k holds pixel x + k of the four rows.
            __m128i p0 = _mm_loadu_si128((const __m128i *)(row[0] + 4 * x));
            __m128i p1 = _mm_loadu_si128((const __m128i *)(row[1] + 4 * x));
            __m128i p2 = _mm_loadu_si128((const __m128i *)(row[2] + 4 * x));
            __m128i p3 = _mm_loadu_si128((const __m128i *)(row[3] + 4 * x));
            __m128i t0 = _mm_unpacklo_epi32(p0, p1), t1 = _mm_unpacklo_epi32(p2, p3);
            __m128i t2 = _mm_unpackhi_epi32(p0, p1), t3 = _mm_unpackhi_epi32(p2, p3);
            _mm512_storeu_si512(a + x, _mm512_cvtepu8_epi32(_mm_unpacklo_epi64(t0, t1)));
            _mm512_storeu_si512(a + x + 1, _mm512_cvtepu8_epi32(_mm_unpackhi_epi64(t0, t1)));
            _mm512_storeu_si512(a + x + 2, _mm512_cvtepu8_epi32(_mm_unpacklo_epi64(t2, t3)));
            _mm512_storeu_si512(a + x + 3, _mm512_cvtepu8_epi32(_mm_unpackhi_epi64(t2, t3)));
        }
        for (; x < width; x++)
            _mm512_storeu_si512(a + x, _mm512_cvtepu8_epi32(_mm_setr_epi32(load32(row[0] + 4 * x), load32(row[1] + 4 * x),
                                                                            load32(row[2] + 4 * x), load32(row[3] + 4 * x))));
        box_pass512(a, b, width, radii[0]);
        box_pass512(b, a, width, radii[1]);
        box_pass512(a, b, width, radii[2]);
        // Four pixels of each row per step: lane r of the packed bytes is row r's.
        for (x = 0; x + 4 <= width; x += 4) {
            __m512i bytes = pack_pixels512(
                blur_levels512(_mm512_loadu_si512(b + x), m), blur_levels512(_mm512_loadu_si512(b + x + 1), m),
                blur_levels512(_mm512_loadu_si512(b + x + 2), m), blur_levels512(_mm512_loadu_si512(b + x + 3), m));
            _mm_storeu_si128((__m128i *)(row[3] + 4 * x), _mm512_extracti32x4_epi32(bytes, 3));
            _mm_storeu_si128((__m128i *)(row[2] + 4 * x), _mm512_extracti32x4_epi32(bytes, 2));
            _mm_storeu_si128((__m128i *)(row[1] + 4 * x), _mm512_extracti32x4_epi32(bytes, 1));
            _mm_storeu_si128((__m128i *)(row[0] + 4 * x), _mm512_castsi512_si128(bytes));
        }
        for (; x < width; x++) {
            __m512i level = blur_levels512(_mm512_loadu_si512(b + x), m);
            __m512i bytes = pack_pixels512(level, level, level, level);
            // Each lane's pixel is in its lowest 32 bits: gather the four into the low 128 bits.
            int32_t four[4];
            _mm_storeu_si128((__m128i *)four, _mm512_castsi512_si128(_mm512_maskz_compress_epi32(0x1111, bytes)));
            for (int r = 3; r >= 0; r--) memcpy(row[r] + 4 * x, &four[r], 4);
        }
    }
}
#endif
