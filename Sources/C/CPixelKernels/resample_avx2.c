// The resampler's two passes with AVX2: 16-bit multiply-adds (vpmaddwd) of byte pixels and the
// Int16 weights, two taps per instruction, 32-bit sums. The sums are exact integers, so the
// order of additions does not change them: the bytes equal the portable kernels'.
#if defined(__x86_64__)
#include "vectors.h"

/// The sums of one output pixel (four 32-bit channels) of one row.
AVX2 static inline __m128i horizontal_sums1(const uint8_t *pixel, const int16_t *weight, ptrdiff_t count) {
    const __m128i lo = _mm_setr_epi8(PAIR_LO), hi = _mm_setr_epi8(PAIR_HI);
    __m128i sums = _mm_setzero_si128();
    ptrdiff_t k = 0;
    for (; k + 4 <= count; k += 4) {
        __m128i value = _mm_loadu_si128((const __m128i *)(pixel + 4 * k));
        sums = _mm_add_epi32(sums, _mm_madd_epi16(_mm_shuffle_epi8(value, lo), _mm_set1_epi32(load32(weight + k))));
        sums = _mm_add_epi32(sums, _mm_madd_epi16(_mm_shuffle_epi8(value, hi), _mm_set1_epi32(load32(weight + k + 2))));
    }
    if (k + 2 <= count) {
        __m128i value = _mm_loadl_epi64((const __m128i *)(pixel + 4 * k));
        sums = _mm_add_epi32(sums, _mm_madd_epi16(_mm_shuffle_epi8(value, lo), _mm_set1_epi32(load32(weight + k))));
        k += 2;
    }
    if (k < count) {
        // The lone last tap: the second pixel of the pair is zero.
        __m128i value = _mm_cvtsi32_si128(load32(pixel + 4 * k));
        sums = _mm_add_epi32(sums, _mm_madd_epi16(_mm_shuffle_epi8(value, lo), _mm_set1_epi32((uint16_t)weight[k])));
    }
    return sums;
}

/// The sums of one output pixel of two rows (one per 128-bit lane), sharing the weights.
AVX2 static inline __m256i horizontal_sums2(const uint8_t *pixel0, const uint8_t *pixel1, const int16_t *weight,
                                            ptrdiff_t count) {
    const __m256i lo = _mm256_setr_epi8(PAIR_LO, PAIR_LO), hi = _mm256_setr_epi8(PAIR_HI, PAIR_HI);
    __m256i sums = _mm256_setzero_si256();
    ptrdiff_t k = 0;
    for (; k + 4 <= count; k += 4) {
        __m256i value = _mm256_loadu2_m128i((const __m128i *)(pixel1 + 4 * k), (const __m128i *)(pixel0 + 4 * k));
        sums = _mm256_add_epi32(sums,
                                _mm256_madd_epi16(_mm256_shuffle_epi8(value, lo), _mm256_set1_epi32(load32(weight + k))));
        sums = _mm256_add_epi32(
            sums, _mm256_madd_epi16(_mm256_shuffle_epi8(value, hi), _mm256_set1_epi32(load32(weight + k + 2))));
    }
    if (k + 2 <= count) {
        __m256i value = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(pixel0 + 4 * k))),
                                                _mm_loadl_epi64((const __m128i *)(pixel1 + 4 * k)), 1);
        sums = _mm256_add_epi32(sums,
                                _mm256_madd_epi16(_mm256_shuffle_epi8(value, lo), _mm256_set1_epi32(load32(weight + k))));
        k += 2;
    }
    if (k < count) {
        __m256i value = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_cvtsi32_si128(load32(pixel0 + 4 * k))),
                                                _mm_cvtsi32_si128(load32(pixel1 + 4 * k)), 1);
        sums = _mm256_add_epi32(
            sums, _mm256_madd_epi16(_mm256_shuffle_epi8(value, lo), _mm256_set1_epi32((uint16_t)weight[k])));
    }
    return sums;
}

/// Fixed-point sums to bytes: (sum + 2^13) >> 14, then ``pack_pixels128``.
AVX2 static inline __m128i pack128(__m128i sums0, __m128i sums1, __m128i sums2, __m128i sums3) {
    const __m128i half = _mm_set1_epi32(1 << 13);
    return pack_pixels128(_mm_srai_epi32(_mm_add_epi32(sums0, half), 14), _mm_srai_epi32(_mm_add_epi32(sums1, half), 14),
                          _mm_srai_epi32(_mm_add_epi32(sums2, half), 14), _mm_srai_epi32(_mm_add_epi32(sums3, half), 14));
}

/// ``pack128`` in each 128-bit lane.
AVX2 static inline __m256i pack256(__m256i sums0, __m256i sums1, __m256i sums2, __m256i sums3) {
    const __m256i half = _mm256_set1_epi32(1 << 13);
    return pack_pixels256(
        _mm256_srai_epi32(_mm256_add_epi32(sums0, half), 14), _mm256_srai_epi32(_mm256_add_epi32(sums1, half), 14),
        _mm256_srai_epi32(_mm256_add_epi32(sums2, half), 14), _mm256_srai_epi32(_mm256_add_epi32(sums3, half), 14));
}

/// Eight taps of one row: eight pixels (lane 0 the first four) multiply-added with their lane's
/// weight pairs; two partial sums per row, one per lane.
AVX2 static inline __m256i horizontal_taps8(__m256i sums, const uint8_t *pixel, __m256i lo, __m256i hi,
                                            __m256i weightsLo, __m256i weightsHi) {
    __m256i value = _mm256_loadu_si256((const __m256i *)pixel);
    sums = _mm256_add_epi32(sums, _mm256_madd_epi16(_mm256_shuffle_epi8(value, lo), weightsLo));
    return _mm256_add_epi32(sums, _mm256_madd_epi16(_mm256_shuffle_epi8(value, hi), weightsHi));
}

/// Two rows' partial sums (two lanes each) added: lane r holds row r's four channels.
AVX2 static inline __m256i fold_rows(__m256i row0, __m256i row1) {
    return _mm256_add_epi32(_mm256_permute2x128_si256(row0, row1, 0x20), _mm256_permute2x128_si256(row0, row1, 0x31));
}

/// Stores lane 0's pixel in `out0` and lane 1's in `out1`.
AVX2 static inline void store_rows(__m256i sums, uint8_t *out0, uint8_t *out1) {
    __m256i bytes = pack256(sums, sums, sums, sums);
    int32_t pixel0 = _mm_cvtsi128_si32(_mm256_castsi256_si128(bytes));
    int32_t pixel1 = _mm_cvtsi128_si32(_mm256_extracti128_si256(bytes, 1));
    memcpy(out0, &pixel0, 4);
    memcpy(out1, &pixel1, 4);
}

AVX2 void wik_horizontal_avx2(const uint8_t *source, ptrdiff_t sourceRowBytes, uint8_t *output,
                              ptrdiff_t outputRowBytes, ptrdiff_t rows, ptrdiff_t width, const int16_t *taps,
                              ptrdiff_t tapStride, const ptrdiff_t *starts, const ptrdiff_t *counts) {
    const __m256i lo = _mm256_setr_epi8(PAIR_LO, PAIR_LO), hi = _mm256_setr_epi8(PAIR_HI, PAIR_HI);
    // Lane j multiplies pixels 4j…4j+3 of the eight: weight pairs 2j (LO) and 2j + 1 (HI).
    const __m256i pairsLo = _mm256_setr_epi32(0, 0, 0, 0, 2, 2, 2, 2);
    const __m256i pairsHi = _mm256_setr_epi32(1, 1, 1, 1, 3, 3, 3, 3);
    ptrdiff_t y = 0;
    // Four rows at a time share each output pixel's weights: eight taps per load, then the last
    // taps (fewer than eight) two rows per register.
    for (; y + 4 <= rows; y += 4) {
        const uint8_t *row = source + y * sourceRowBytes;
        uint8_t *out = output + y * outputRowBytes;
        for (ptrdiff_t x = 0; x < width; x++) {
            const uint8_t *p0 = row + 4 * starts[x], *p1 = p0 + sourceRowBytes;
            const uint8_t *p2 = p1 + sourceRowBytes, *p3 = p2 + sourceRowBytes;
            const int16_t *weight = taps + x * tapStride;
            ptrdiff_t count = counts[x], k = 0;
            __m256i sums0 = _mm256_setzero_si256(), sums1 = sums0, sums2 = sums0, sums3 = sums0;
            for (; k + 8 <= count; k += 8) {
                __m256i pairs = _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(weight + k)));
                __m256i weightsLo = _mm256_permutevar8x32_epi32(pairs, pairsLo);
                __m256i weightsHi = _mm256_permutevar8x32_epi32(pairs, pairsHi);
                sums0 = horizontal_taps8(sums0, p0 + 4 * k, lo, hi, weightsLo, weightsHi);
                sums1 = horizontal_taps8(sums1, p1 + 4 * k, lo, hi, weightsLo, weightsHi);
                sums2 = horizontal_taps8(sums2, p2 + 4 * k, lo, hi, weightsLo, weightsHi);
                sums3 = horizontal_taps8(sums3, p3 + 4 * k, lo, hi, weightsLo, weightsHi);
            }
            __m256i rows01 = _mm256_add_epi32(fold_rows(sums0, sums1),
                                              horizontal_sums2(p0 + 4 * k, p1 + 4 * k, weight + k, count - k));
            __m256i rows23 = _mm256_add_epi32(fold_rows(sums2, sums3),
                                              horizontal_sums2(p2 + 4 * k, p3 + 4 * k, weight + k, count - k));
            store_rows(rows01, out + 4 * x, out + outputRowBytes + 4 * x);
            store_rows(rows23, out + 2 * outputRowBytes + 4 * x, out + 3 * outputRowBytes + 4 * x);
        }
    }
    for (; y + 2 <= rows; y += 2) {
        const uint8_t *row0 = source + y * sourceRowBytes, *row1 = row0 + sourceRowBytes;
        uint8_t *out0 = output + y * outputRowBytes, *out1 = out0 + outputRowBytes;
        for (ptrdiff_t x = 0; x < width; x++) {
            __m256i sums = horizontal_sums2(row0 + 4 * starts[x], row1 + 4 * starts[x], taps + x * tapStride, counts[x]);
            store_rows(sums, out0 + 4 * x, out1 + 4 * x);
        }
    }
    for (; y < rows; y++) {
        const uint8_t *row = source + y * sourceRowBytes;
        uint8_t *out = output + y * outputRowBytes;
        for (ptrdiff_t x = 0; x < width; x++) {
            __m128i sums = horizontal_sums1(row + 4 * starts[x], taps + x * tapStride, counts[x]);
            int32_t pixel = _mm_cvtsi128_si32(pack128(sums, sums, sums, sums));
            memcpy(out + 4 * x, &pixel, 4);
        }
    }
}

AVX2 void wik_vertical_avx2(const uint8_t *first, ptrdiff_t stride, ptrdiff_t length, const int16_t *taps,
                            ptrdiff_t count, uint8_t *output) {
    ptrdiff_t i = 0;
    // 32 bytes (eight pixels) at a time: rows k and k + 1 interleaved byte by byte, widened to
    // 16 bits, multiply-added with (w_k, w_k+1): four registers of 32-bit sums, in lane order.
    const __m256i zero = _mm256_setzero_si256();
    for (; i + 32 <= length; i += 32) {
        __m256i sums0 = zero, sums1 = zero, sums2 = zero, sums3 = zero;
        const uint8_t *pixel = first + i;
        ptrdiff_t k = 0;
        for (; k + 2 <= count; k += 2, pixel += 2 * stride) {
            __m256i upper = _mm256_loadu_si256((const __m256i *)pixel);
            __m256i lower = _mm256_loadu_si256((const __m256i *)(pixel + stride));
            __m256i weights = _mm256_set1_epi32(load32(taps + k));
            __m256i lo = _mm256_unpacklo_epi8(upper, lower), hi = _mm256_unpackhi_epi8(upper, lower);
            sums0 = _mm256_add_epi32(sums0, _mm256_madd_epi16(_mm256_unpacklo_epi8(lo, zero), weights));
            sums1 = _mm256_add_epi32(sums1, _mm256_madd_epi16(_mm256_unpackhi_epi8(lo, zero), weights));
            sums2 = _mm256_add_epi32(sums2, _mm256_madd_epi16(_mm256_unpacklo_epi8(hi, zero), weights));
            sums3 = _mm256_add_epi32(sums3, _mm256_madd_epi16(_mm256_unpackhi_epi8(hi, zero), weights));
        }
        if (k < count) {
            __m256i upper = _mm256_loadu_si256((const __m256i *)pixel);
            __m256i weights = _mm256_set1_epi32((uint16_t)taps[k]);
            __m256i lo = _mm256_unpacklo_epi8(upper, zero), hi = _mm256_unpackhi_epi8(upper, zero);
            sums0 = _mm256_add_epi32(sums0, _mm256_madd_epi16(_mm256_unpacklo_epi8(lo, zero), weights));
            sums1 = _mm256_add_epi32(sums1, _mm256_madd_epi16(_mm256_unpackhi_epi8(lo, zero), weights));
            sums2 = _mm256_add_epi32(sums2, _mm256_madd_epi16(_mm256_unpacklo_epi8(hi, zero), weights));
            sums3 = _mm256_add_epi32(sums3, _mm256_madd_epi16(_mm256_unpackhi_epi8(hi, zero), weights));
        }
        _mm256_storeu_si256((__m256i *)(output + i), pack256(sums0, sums1, sums2, sums3));
    }
    const __m128i zero128 = _mm_setzero_si128();
    for (; i + 16 <= length; i += 16) {
        __m128i sums0 = zero128, sums1 = zero128, sums2 = zero128, sums3 = zero128;
        const uint8_t *pixel = first + i;
        for (ptrdiff_t k = 0; k < count; k += 2, pixel += 2 * stride) {
            __m128i upper = _mm_loadu_si128((const __m128i *)pixel);
            __m128i lower = k + 1 < count ? _mm_loadu_si128((const __m128i *)(pixel + stride)) : zero128;
            __m128i weights = _mm_set1_epi32(k + 1 < count ? load32(taps + k) : (uint16_t)taps[k]);
            __m128i lo = _mm_unpacklo_epi8(upper, lower), hi = _mm_unpackhi_epi8(upper, lower);
            sums0 = _mm_add_epi32(sums0, _mm_madd_epi16(_mm_unpacklo_epi8(lo, zero128), weights));
            sums1 = _mm_add_epi32(sums1, _mm_madd_epi16(_mm_unpackhi_epi8(lo, zero128), weights));
            sums2 = _mm_add_epi32(sums2, _mm_madd_epi16(_mm_unpacklo_epi8(hi, zero128), weights));
            sums3 = _mm_add_epi32(sums3, _mm_madd_epi16(_mm_unpackhi_epi8(hi, zero128), weights));
        }
        _mm_storeu_si128((__m128i *)(output + i), pack128(sums0, sums1, sums2, sums3));
    }
    wik_vertical_tail(first, stride, taps, count, output, i, length);
}
#endif
