// The blur's box passes with AVX2 (BoxBlur and BoxBlur+Rows in Swift are the reference): the
// vertical running sums eight 32-bit lanes at a time, the store of sums to pixels, and the
// horizontal passes two rows at once (one row per 128-bit lane, a pixel's four channels side by
// side). The sums are exact integers in every order, so the bytes equal the portable kernels'.
#if defined(__x86_64__)
#include "vectors.h"

AVX2 void wik_blur_add_rows_avx2(int32_t *sum, const int32_t *added, const int32_t *removed, ptrdiff_t count,
                                 int32_t *copy) {
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i value = _mm256_sub_epi32(
            _mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(sum + i)), _mm256_loadu_si256((const __m256i *)(added + i))),
            _mm256_loadu_si256((const __m256i *)(removed + i)));
        _mm256_storeu_si256((__m256i *)(sum + i), value);
        if (copy) _mm256_storeu_si256((__m256i *)(copy + i), value);
    }
    wik_blur_add_rows_tail(sum, added, removed, count, copy, i);
}

AVX2 void wik_blur_add_byte_rows_avx2(int32_t *sum, const uint8_t *added, const uint8_t *removed, ptrdiff_t count,
                                      int32_t *copy) {
    ptrdiff_t i = 0;
    for (; i + 8 <= count; i += 8) {
        __m256i plus = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(added + i)));
        __m256i minus = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(removed + i)));
        __m256i value = _mm256_sub_epi32(_mm256_add_epi32(_mm256_loadu_si256((const __m256i *)(sum + i)), plus), minus);
        _mm256_storeu_si256((__m256i *)(sum + i), value);
        if (copy) _mm256_storeu_si256((__m256i *)(copy + i), value);
    }
    wik_blur_add_byte_rows_tail(sum, added, removed, count, copy, i);
}

/// Eight non-negative sums to levels: (sum · multiplier + 2^31) >> 32, the even lanes and the odd
/// ones through separate 32 × 32 → 64-bit multiplies.
AVX2 static inline __m256i blur_levels256(__m256i sums, __m256i multiplier) {
    const __m256i half = _mm256_set1_epi64x((long long)1 << 31);
    __m256i even = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epu32(sums, multiplier), half), 32);
    __m256i odd = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(sums, 32), multiplier), half);
    return _mm256_blend_epi32(even, odd, 0xAA);
}

AVX2 void wik_blur_store_avx2(const int32_t *values, ptrdiff_t count, uint32_t multiplier, uint8_t *output) {
    const __m256i m = _mm256_set1_epi32((int32_t)multiplier);
    // The packs interleave the lanes: pixels 0, 2, 4, 6 | 1, 3, 5, 7, put back in order.
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    ptrdiff_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256i levels[4];
        for (int k = 0; k < 4; k++)
            levels[k] = blur_levels256(_mm256_loadu_si256((const __m256i *)(values + i + 8 * k)), m);
        __m256i bytes = pack_pixels256(levels[0], levels[1], levels[2], levels[3]);
        _mm256_storeu_si256((__m256i *)(output + i), _mm256_permutevar8x32_epi32(bytes, order));
    }
    wik_blur_store_tail(values, count, multiplier, output, i);
}

/// One box pass over `n` positions of two rows' pixels: dst[p] = the sum of src[p − r … p + r],
/// indices clamped to the row (the edge pixels repeat).
AVX2 static void box_pass256(const __m256i *src, __m256i *dst, ptrdiff_t n, ptrdiff_t r) {
    __m256i sum = _mm256_setzero_si256();
    for (ptrdiff_t i = -r; i <= r; i++)
        sum = _mm256_add_epi32(sum, _mm256_loadu_si256(src + (i < 0 ? 0 : (i < n ? i : n - 1))));
    ptrdiff_t interiorStart = r < n ? r : n, interiorEnd = n - r - 1 > interiorStart ? n - r - 1 : interiorStart;
    ptrdiff_t p = 0;
    for (; p < interiorStart; p++) {
        _mm256_storeu_si256(dst + p, sum);
        ptrdiff_t add = p + r + 1 < n ? p + r + 1 : n - 1, remove = p - r > 0 ? p - r : 0;
        sum = _mm256_sub_epi32(_mm256_add_epi32(sum, _mm256_loadu_si256(src + add)), _mm256_loadu_si256(src + remove));
    }
    for (; p < interiorEnd; p++) {
        _mm256_storeu_si256(dst + p, sum);
        sum = _mm256_sub_epi32(_mm256_add_epi32(sum, _mm256_loadu_si256(src + p + r + 1)),
                               _mm256_loadu_si256(src + p - r));
    }
    for (; p < n; p++) {
        _mm256_storeu_si256(dst + p, sum);
        ptrdiff_t add = p + r + 1 < n ? p + r + 1 : n - 1, remove = p - r > 0 ? p - r : 0;
        sum = _mm256_sub_epi32(_mm256_add_epi32(sum, _mm256_loadu_si256(src + add)), _mm256_loadu_si256(src + remove));
    }
}

AVX2 void wik_blur_horizontal_avx2(uint8_t *pixels, ptrdiff_t rowBytes, ptrdiff_t rows, ptrdiff_t width,
                                   const ptrdiff_t *radii, uint32_t multiplier, int32_t *scratch) {
    __m256i *a = (__m256i *)scratch, *b = a + width;
    const __m256i m = _mm256_set1_epi32((int32_t)multiplier);
    for (ptrdiff_t y = 0; y < rows; y += 2) {
        // A last, lone row runs in both lanes (and is written twice, the same bytes).
        uint8_t *row0 = pixels + y * rowBytes, *row1 = y + 1 < rows ? row0 + rowBytes : row0;
        ptrdiff_t x = 0;
        for (; x + 4 <= width; x += 4) {
            __m128i p = _mm_loadu_si128((const __m128i *)(row0 + 4 * x));
            __m128i q = _mm_loadu_si128((const __m128i *)(row1 + 4 * x));
            __m128i lo = _mm_unpacklo_epi32(p, q), hi = _mm_unpackhi_epi32(p, q);
            _mm256_storeu_si256(a + x, _mm256_cvtepu8_epi32(lo));
            _mm256_storeu_si256(a + x + 1, _mm256_cvtepu8_epi32(_mm_srli_si128(lo, 8)));
            _mm256_storeu_si256(a + x + 2, _mm256_cvtepu8_epi32(hi));
            _mm256_storeu_si256(a + x + 3, _mm256_cvtepu8_epi32(_mm_srli_si128(hi, 8)));
        }
        for (; x < width; x++)
            _mm256_storeu_si256(a + x, _mm256_cvtepu8_epi32(_mm_setr_epi32(load32(row0 + 4 * x), load32(row1 + 4 * x), 0, 0)));
        box_pass256(a, b, width, radii[0]);
        box_pass256(b, a, width, radii[1]);
        box_pass256(a, b, width, radii[2]);
        // Four pixels of each row per step: lane r of the packed bytes is row r's.
        for (x = 0; x + 4 <= width; x += 4) {
            __m256i bytes = pack_pixels256(
                blur_levels256(_mm256_loadu_si256(b + x), m), blur_levels256(_mm256_loadu_si256(b + x + 1), m),
                blur_levels256(_mm256_loadu_si256(b + x + 2), m), blur_levels256(_mm256_loadu_si256(b + x + 3), m));
            _mm_storeu_si128((__m128i *)(row1 + 4 * x), _mm256_extracti128_si256(bytes, 1));
            _mm_storeu_si128((__m128i *)(row0 + 4 * x), _mm256_castsi256_si128(bytes));
        }
        for (; x < width; x++) {
            __m256i level = blur_levels256(_mm256_loadu_si256(b + x), m);
            __m256i bytes = pack_pixels256(level, level, level, level);
            int32_t pixel1 = _mm_cvtsi128_si32(_mm256_extracti128_si256(bytes, 1));
            int32_t pixel0 = _mm_cvtsi128_si32(_mm256_castsi256_si128(bytes));
            memcpy(row1 + 4 * x, &pixel1, 4);
            memcpy(row0 + 4 * x, &pixel0, 4);
        }
    }
}
#endif
