// The resampler's two passes with AVX-512 (F + BW): the AVX2 kernels' arithmetic (resample_avx2.c)
// on 512-bit registers — four rows at once in the horizontal pass, 64 bytes at once in the
// vertical one — handing what is left over to the AVX2 kernels.
#if defined(__x86_64__)
#include "vectors.h"

/// Four 128-bit values, one per lane.
AVX512 static inline __m512i lanes4(__m128i a, __m128i b, __m128i c, __m128i d) {
    __m512i value = _mm512_castsi128_si512(a);
    value = _mm512_inserti32x4(value, b, 1);
    value = _mm512_inserti32x4(value, c, 2);
    return _mm512_inserti32x4(value, d, 3);
}

/// The AVX2 kernels' pack (round, saturate, colour at most alpha) in each 128-bit lane.
AVX512 static inline __m512i pack512(__m512i sums0, __m512i sums1, __m512i sums2, __m512i sums3) {
    const __m512i half = _mm512_set1_epi32(1 << 13);
    return pack_pixels512(
        _mm512_srai_epi32(_mm512_add_epi32(sums0, half), 14), _mm512_srai_epi32(_mm512_add_epi32(sums1, half), 14),
        _mm512_srai_epi32(_mm512_add_epi32(sums2, half), 14), _mm512_srai_epi32(_mm512_add_epi32(sums3, half), 14));
}

/// Eight taps of two rows: eight pixels of each (the first row in lanes 0–1, the second in 2–3)
/// multiply-added with their lane's weight pairs; two partial sums per row.
AVX512 static inline __m512i horizontal_taps8x2(__m512i sums, const uint8_t *pixel0, const uint8_t *pixel1, __m512i lo,
                                                __m512i hi, __m512i weightsLo, __m512i weightsHi) {
    __m512i value = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)pixel0)),
                                       _mm256_loadu_si256((const __m256i *)pixel1), 1);
    sums = _mm512_add_epi32(sums, _mm512_madd_epi16(_mm512_shuffle_epi8(value, lo), weightsLo));
    return _mm512_add_epi32(sums, _mm512_madd_epi16(_mm512_shuffle_epi8(value, hi), weightsHi));
}

AVX512 void wik_horizontal_avx512(const uint8_t *source, ptrdiff_t sourceRowBytes, uint8_t *output,
                                  ptrdiff_t outputRowBytes, ptrdiff_t rows, ptrdiff_t width, const int16_t *taps,
                                  ptrdiff_t tapStride, const ptrdiff_t *starts, const ptrdiff_t *counts) {
    const __m512i lo = repeat4(_mm_setr_epi8(PAIR_LO)), hi = repeat4(_mm_setr_epi8(PAIR_HI));
    // Lanes 0 and 2 multiply pixels 0…3 of their row's eight (weight pairs 0 and 1), lanes 1 and 3
    // pixels 4…7 (pairs 2 and 3).
    const __m512i pairsLo = _mm512_setr_epi32(0, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0, 0, 2, 2, 2, 2);
    const __m512i pairsHi = _mm512_setr_epi32(1, 1, 1, 1, 3, 3, 3, 3, 1, 1, 1, 1, 3, 3, 3, 3);
    ptrdiff_t y = 0;
    // Four rows at a time share each output pixel's weights: eight taps of two rows per register,
    // then the last taps (fewer than eight) one row per lane.
    for (; y + 4 <= rows; y += 4) {
        const uint8_t *row = source + y * sourceRowBytes;
        uint8_t *out = output + y * outputRowBytes;
        for (ptrdiff_t x = 0; x < width; x++) {
            const uint8_t *p0 = row + 4 * starts[x], *p1 = p0 + sourceRowBytes;
            const uint8_t *p2 = p1 + sourceRowBytes, *p3 = p2 + sourceRowBytes;
            const int16_t *weight = taps + x * tapStride;
            ptrdiff_t count = counts[x], k = 0;
            __m512i rows01 = _mm512_setzero_si512(), rows23 = rows01;
            for (; k + 8 <= count; k += 8) {
                __m512i pairs = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(weight + k)));
                __m512i weightsLo = _mm512_permutexvar_epi32(pairsLo, pairs);
                __m512i weightsHi = _mm512_permutexvar_epi32(pairsHi, pairs);
                rows01 = horizontal_taps8x2(rows01, p0 + 4 * k, p1 + 4 * k, lo, hi, weightsLo, weightsHi);
                rows23 = horizontal_taps8x2(rows23, p2 + 4 * k, p3 + 4 * k, lo, hi, weightsLo, weightsHi);
            }
            // Each row's two lanes added: lane r of the result holds row r's four channels.
            __m512i sums = _mm512_add_epi32(_mm512_shuffle_i32x4(rows01, rows23, 0x88),
                                            _mm512_shuffle_i32x4(rows01, rows23, 0xDD));
            for (; k + 4 <= count; k += 4) {
                __m512i value = lanes4(_mm_loadu_si128((const __m128i *)(p0 + 4 * k)),
                                       _mm_loadu_si128((const __m128i *)(p1 + 4 * k)),
                                       _mm_loadu_si128((const __m128i *)(p2 + 4 * k)),
                                       _mm_loadu_si128((const __m128i *)(p3 + 4 * k)));
                sums = _mm512_add_epi32(
                    sums, _mm512_madd_epi16(_mm512_shuffle_epi8(value, lo), _mm512_set1_epi32(load32(weight + k))));
                sums = _mm512_add_epi32(
                    sums, _mm512_madd_epi16(_mm512_shuffle_epi8(value, hi), _mm512_set1_epi32(load32(weight + k + 2))));
            }
            if (k + 2 <= count) {
                __m512i value = lanes4(_mm_loadl_epi64((const __m128i *)(p0 + 4 * k)),
                                       _mm_loadl_epi64((const __m128i *)(p1 + 4 * k)),
                                       _mm_loadl_epi64((const __m128i *)(p2 + 4 * k)),
                                       _mm_loadl_epi64((const __m128i *)(p3 + 4 * k)));
                sums = _mm512_add_epi32(
                    sums, _mm512_madd_epi16(_mm512_shuffle_epi8(value, lo), _mm512_set1_epi32(load32(weight + k))));
                k += 2;
            }
            if (k < count) {
                __m512i value = lanes4(_mm_cvtsi32_si128(load32(p0 + 4 * k)), _mm_cvtsi32_si128(load32(p1 + 4 * k)),
                                       _mm_cvtsi32_si128(load32(p2 + 4 * k)), _mm_cvtsi32_si128(load32(p3 + 4 * k)));
                sums = _mm512_add_epi32(
                    sums, _mm512_madd_epi16(_mm512_shuffle_epi8(value, lo), _mm512_set1_epi32((uint16_t)weight[k])));
            }
            // Each lane's pixel is in its lowest 32 bits: gather the four into the low 128 bits.
            __m512i bytes = pack512(sums, sums, sums, sums);
            int32_t pixels[4];
            _mm_storeu_si128((__m128i *)pixels, _mm512_castsi512_si128(_mm512_maskz_compress_epi32(0x1111, bytes)));
            for (int r = 0; r < 4; r++) memcpy(out + r * outputRowBytes + 4 * x, &pixels[r], 4);
        }
    }
    if (y < rows)
        wik_horizontal_avx2(source + y * sourceRowBytes, sourceRowBytes, output + y * outputRowBytes, outputRowBytes,
                            rows - y, width, taps, tapStride, starts, counts);
}

AVX512 void wik_vertical_avx512(const uint8_t *first, ptrdiff_t stride, ptrdiff_t length, const int16_t *taps,
                                ptrdiff_t count, uint8_t *output) {
    const __m512i zero = _mm512_setzero_si512();
    ptrdiff_t i = 0;
    for (; i + 64 <= length; i += 64) {
        __m512i sums0 = zero, sums1 = zero, sums2 = zero, sums3 = zero;
        const uint8_t *pixel = first + i;
        ptrdiff_t k = 0;
        for (; k + 2 <= count; k += 2, pixel += 2 * stride) {
            __m512i upper = _mm512_loadu_si512(pixel), lower = _mm512_loadu_si512(pixel + stride);
            __m512i weights = _mm512_set1_epi32(load32(taps + k));
            __m512i lo = _mm512_unpacklo_epi8(upper, lower), hi = _mm512_unpackhi_epi8(upper, lower);
            sums0 = _mm512_add_epi32(sums0, _mm512_madd_epi16(_mm512_unpacklo_epi8(lo, zero), weights));
            sums1 = _mm512_add_epi32(sums1, _mm512_madd_epi16(_mm512_unpackhi_epi8(lo, zero), weights));
            sums2 = _mm512_add_epi32(sums2, _mm512_madd_epi16(_mm512_unpacklo_epi8(hi, zero), weights));
            sums3 = _mm512_add_epi32(sums3, _mm512_madd_epi16(_mm512_unpackhi_epi8(hi, zero), weights));
        }
        if (k < count) {
            __m512i upper = _mm512_loadu_si512(pixel);
            __m512i weights = _mm512_set1_epi32((uint16_t)taps[k]);
            __m512i lo = _mm512_unpacklo_epi8(upper, zero), hi = _mm512_unpackhi_epi8(upper, zero);
            sums0 = _mm512_add_epi32(sums0, _mm512_madd_epi16(_mm512_unpacklo_epi8(lo, zero), weights));
            sums1 = _mm512_add_epi32(sums1, _mm512_madd_epi16(_mm512_unpackhi_epi8(lo, zero), weights));
            sums2 = _mm512_add_epi32(sums2, _mm512_madd_epi16(_mm512_unpacklo_epi8(hi, zero), weights));
            sums3 = _mm512_add_epi32(sums3, _mm512_madd_epi16(_mm512_unpackhi_epi8(hi, zero), weights));
        }
        _mm512_storeu_si512(output + i, pack512(sums0, sums1, sums2, sums3));
    }
    if (i < length) wik_vertical_avx2(first + i, stride, length - i, taps, count, output + i);
}
#endif
