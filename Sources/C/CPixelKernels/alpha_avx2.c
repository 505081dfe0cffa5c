// Premultiply and unpremultiply with AVX2, to the portable kernels' exact rounding: the multiply
// in 16 bits ((t + (t >> 8)) >> 8 with t = c · a + 128, exact for every byte), the divide in
// single precision (the quotient of two integers below 2^16 truncates to the integer quotient:
// a non-integer one is at least 1/a from the next integer, far above the rounding error).
#if defined(__x86_64__)
#include "vectors.h"

/// (c · m + 128 + ((c · m + 128) >> 8)) >> 8 for 16-bit channels, m = (a, a, a, 255) per pixel.
AVX2 static inline __m256i premultiply16(__m256i channels) {
    const __m256i alpha = _mm256_setr_epi8(6, 7, 6, 7, 6, 7, -1, -1, 14, 15, 14, 15, 14, 15, -1, -1, 6, 7, 6, 7, 6, 7,
                                           -1, -1, 14, 15, 14, 15, 14, 15, -1, -1);
    const __m256i keep = _mm256_set1_epi64x((long long)255 << 48), round = _mm256_set1_epi16(128);
    __m256i factor = _mm256_or_si256(_mm256_shuffle_epi8(channels, alpha), keep);
    __m256i t = _mm256_add_epi16(_mm256_mullo_epi16(channels, factor), round);
    return _mm256_srli_epi16(_mm256_add_epi16(t, _mm256_srli_epi16(t, 8)), 8);
}

AVX2 void wik_premultiply_avx2(uint8_t *pixels, ptrdiff_t count) {
    ptrdiff_t i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256i value = _mm256_loadu_si256((const __m256i *)(pixels + i));
        __m256i lo = premultiply16(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(value)));
        __m256i hi = premultiply16(_mm256_cvtepu8_epi16(_mm256_extracti128_si256(value, 1)));
        // packus works per lane: (lo₀ hi₀ | lo₁ hi₁) back to pixel order.
        _mm256_storeu_si256((__m256i *)(pixels + i), _mm256_permute4x64_epi64(_mm256_packus_epi16(lo, hi), 0xD8));
    }
    for (; i + 3 < count; i += 4) {
        uint32_t a = pixels[i + 3];
        for (int c = 0; c < 3; c++) {
            uint32_t t = pixels[i + c] * a + 128;
            pixels[i + c] = (uint8_t)((t + (t >> 8)) >> 8);
        }
    }
}

/// min(255, (c · 255 + a / 2) / a) for two pixels of 32-bit channels; 0 where a is 0; alpha kept.
AVX2 static inline __m256i unpremultiply32(__m256i channels) {
    __m256i alpha = _mm256_shuffle_epi32(channels, 0xFF);
    __m256i numerator = _mm256_add_epi32(_mm256_mullo_epi32(channels, _mm256_set1_epi32(255)), _mm256_srli_epi32(alpha, 1));
    __m256i quotient = _mm256_cvttps_epi32(_mm256_div_ps(_mm256_cvtepi32_ps(numerator), _mm256_cvtepi32_ps(alpha)));
    quotient = _mm256_min_epi32(quotient, _mm256_set1_epi32(255));
    quotient = _mm256_andnot_si256(_mm256_cmpeq_epi32(alpha, _mm256_setzero_si256()), quotient);
    return _mm256_blend_epi32(quotient, channels, 0x88);
}

AVX2 void wik_unpremultiply_avx2(uint8_t *pixels, ptrdiff_t count) {
    ptrdiff_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m128i value = _mm_loadu_si128((const __m128i *)(pixels + i));
        __m256i lo = unpremultiply32(_mm256_cvtepu8_epi32(value));
        __m256i hi = unpremultiply32(_mm256_cvtepu8_epi32(_mm_srli_si128(value, 8)));
        __m256i words = _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), 0xD8);
        __m128i bytes = _mm_packus_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
        _mm_storeu_si128((__m128i *)(pixels + i), bytes);
    }
    for (; i + 3 < count; i += 4) {
        uint32_t a = pixels[i + 3];
        if (a == 0) {
            pixels[i] = pixels[i + 1] = pixels[i + 2] = 0;
        } else if (a != 255) {
            for (int c = 0; c < 3; c++) {
                uint32_t value = (pixels[i + c] * 255u + a / 2) / a;
                pixels[i + c] = (uint8_t)(value < 255 ? value : 255);
            }
        }
    }
}
#endif
