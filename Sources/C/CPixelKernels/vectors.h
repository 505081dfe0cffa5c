// Set-up the AVX2 and AVX-512 kernel files share: the target attributes, unaligned 32-bit loads,
// the byte shuffles that pair or spread RGBA channels, and the final pack of 32-bit sums to
// pixels (saturated to 0…255, colour at most alpha).
#ifndef C_PIXEL_KERNELS_VECTORS_H
#define C_PIXEL_KERNELS_VECTORS_H
#if defined(__x86_64__)
#include <immintrin.h>
#include <string.h>
#include "kernels.h"

#define AVX2 __attribute__((target("avx2")))
#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vl")))

static inline int32_t load32(const void *pointer) {
    int32_t value;
    memcpy(&value, pointer, 4);
    return value;
}

// Within each 128-bit lane of four RGBA pixels p0…p3: the channels of p0 and p1 (LO) or of p2 and
// p3 (HI) side by side as 16-bit values, ready to multiply-add with the weight pair (w0, w1).
#define PAIR_LO 0, -1, 4, -1, 1, -1, 5, -1, 2, -1, 6, -1, 3, -1, 7, -1
#define PAIR_HI 8, -1, 12, -1, 9, -1, 13, -1, 10, -1, 14, -1, 11, -1, 15, -1
// Each pixel's alpha byte in all four of its bytes.
#define ALPHA 3, 3, 3, 3, 7, 7, 7, 7, 11, 11, 11, 11, 15, 15, 15, 15

/// Four registers of 32-bit channels to bytes in each 128-bit lane (lane i: sums0's, sums1's,
/// sums2's and sums3's pixel i), saturated to 0…255 by the two packs exactly as the scalar code
/// clamps, colour clamped to at most its pixel's alpha.
AVX2 static inline __m128i pack_pixels128(__m128i sums0, __m128i sums1, __m128i sums2, __m128i sums3) {
    __m128i bytes = _mm_packus_epi16(_mm_packs_epi32(sums0, sums1), _mm_packs_epi32(sums2, sums3));
    return _mm_min_epu8(bytes, _mm_shuffle_epi8(bytes, _mm_setr_epi8(ALPHA)));
}

/// ``pack_pixels128`` in each 128-bit lane.
AVX2 static inline __m256i pack_pixels256(__m256i sums0, __m256i sums1, __m256i sums2, __m256i sums3) {
    __m256i bytes = _mm256_packus_epi16(_mm256_packs_epi32(sums0, sums1), _mm256_packs_epi32(sums2, sums3));
    return _mm256_min_epu8(bytes, _mm256_shuffle_epi8(bytes, _mm256_setr_epi8(ALPHA, ALPHA)));
}

/// A 128-bit pattern repeated in all four lanes.
AVX512 static inline __m512i repeat4(__m128i lane) { return _mm512_broadcast_i32x4(lane); }

/// ``pack_pixels128`` in each 128-bit lane.
AVX512 static inline __m512i pack_pixels512(__m512i sums0, __m512i sums1, __m512i sums2, __m512i sums3) {
    __m512i bytes = _mm512_packus_epi16(_mm512_packs_epi32(sums0, sums1), _mm512_packs_epi32(sums2, sums3));
    return _mm512_min_epu8(bytes, _mm512_shuffle_epi8(bytes, repeat4(_mm_setr_epi8(ALPHA))));
}
#endif
#endif
