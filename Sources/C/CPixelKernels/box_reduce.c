// The ×2 box reduction (the reducing gap's usual first step) with AVX2 and AVX-512: each pair of
// pixels' channels side by side (vpshufb), summed by a multiply-add with ones (vpmaddubsw), the
// two rows added in 16 bits, then (sum + 2) >> 2 — the portable kernel's (sum + count / 2) / count.
#if defined(__x86_64__)
#include "vectors.h"

// Within a 128-bit lane of four pixels: p0 and p1's channels interleaved, then p2 and p3's.
#define PAIRS 0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15

AVX2 void wik_box_reduce2_avx2(const uint8_t *first, const uint8_t *second, ptrdiff_t width, uint8_t *output) {
    ptrdiff_t x = 0;
    if (second) {
        const __m256i pairs = _mm256_setr_epi8(PAIRS, PAIRS), ones = _mm256_set1_epi8(1), two = _mm256_set1_epi16(2);
        // Four output pixels (whole 2 × 2 blocks) from 32 bytes of each row.
        for (; x + 4 <= width / 2; x += 4) {
            __m256i upper = _mm256_loadu_si256((const __m256i *)(first + 8 * x));
            __m256i lower = _mm256_loadu_si256((const __m256i *)(second + 8 * x));
            __m256i sums = _mm256_add_epi16(_mm256_maddubs_epi16(_mm256_shuffle_epi8(upper, pairs), ones),
                                            _mm256_maddubs_epi16(_mm256_shuffle_epi8(lower, pairs), ones));
            sums = _mm256_srli_epi16(_mm256_add_epi16(sums, two), 2);
            // Each lane's two pixels are in its low 64 bits.
            __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(sums, sums), 0x08);
            _mm_storeu_si128((__m128i *)(output + 4 * x), _mm256_castsi256_si128(bytes));
        }
    }
    wik_box_reduce2_tail(first, second, width, output, x);
}

AVX512 void wik_box_reduce2_avx512(const uint8_t *first, const uint8_t *second, ptrdiff_t width, uint8_t *output) {
    ptrdiff_t x = 0;
    if (second) {
        const __m512i pairs = _mm512_broadcast_i32x4(_mm_setr_epi8(PAIRS)), ones = _mm512_set1_epi8(1);
        const __m512i two = _mm512_set1_epi16(2), order = _mm512_setr_epi64(0, 2, 4, 6, 0, 2, 4, 6);
        for (; x + 8 <= width / 2; x += 8) {
            __m512i upper = _mm512_loadu_si512(first + 8 * x), lower = _mm512_loadu_si512(second + 8 * x);
            __m512i sums = _mm512_add_epi16(_mm512_maddubs_epi16(_mm512_shuffle_epi8(upper, pairs), ones),
                                            _mm512_maddubs_epi16(_mm512_shuffle_epi8(lower, pairs), ones));
            sums = _mm512_srli_epi16(_mm512_add_epi16(sums, two), 2);
            __m512i bytes = _mm512_permutexvar_epi64(order, _mm512_packus_epi16(sums, sums));
            _mm256_storeu_si256((__m256i *)(output + 4 * x), _mm512_castsi512_si256(bytes));
        }
    }
    wik_box_reduce2_avx2(first + 8 * x, second ? second + 8 * x : NULL, width - 2 * x, output + 4 * x);
}
#endif
