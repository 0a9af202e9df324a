/*
 * The nonce search on four lanes of AVX2 (vpmuludq: 32 x 32-bit products into 64-bit lanes), each element
 * in ten 26-bit limbs, so that a product fits in 52 bits and a column sums dozens of them. Compiled for AVX2
 * whatever the build's target; poseidon.c calls it only where the processor has it.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("avx2")
#include <immintrin.h>

#define VL 4
#define NL 10
#define RADIX 26

typedef __m256i vec;

#define v_zero() _mm256_setzero_si256()
#define v_set1(x) _mm256_set1_epi64x((long long)(x))
#define v_add(a, b) _mm256_add_epi64((a), (b))
#define v_load(p) _mm256_loadu_si256((const void *)(p))

static inline __attribute__((always_inline)) void v_acc_mul(vec *T, const vec *a, const vec *b) {
  for (int i = 0; i < NL; i++) {
    for (int j = 0; j < NL; j++) T[i + j] = _mm256_add_epi64(T[i + j], _mm256_mul_epu32(a[j], b[i]));
  }
}

static inline __attribute__((always_inline)) void v_square(vec *T, const vec *a) {
  for (int i = 0; i < NL; i++) {
    for (int j = i + 1; j < NL; j++) T[i + j] = _mm256_add_epi64(T[i + j], _mm256_mul_epu32(a[j], a[i]));
  }
  for (int k = 0; k < 2 * NL; k++) T[k] = _mm256_slli_epi64(T[k], 1);
  for (int i = 0; i < NL; i++) T[2 * i] = _mm256_add_epi64(T[2 * i], _mm256_mul_epu32(a[i], a[i]));
}

#define v_reduce avx2_reduce
#define v_hits avx2_hits
static inline void avx2_reduce(vec *out, vec *T, const void *table);
static inline unsigned avx2_hits(const vec *x, const void *table);

#include "lanes_rounds.h"

static inline __attribute__((always_inline)) void avx2_reduce(vec *out, vec *T, const void *table) {
  const vtable *K = table;
  const vec mask = v_set1((1ULL << RADIX) - 1), inv = v_set1(K->p_inv);
  vec p[NL];
  for (int j = 0; j < NL; j++) p[j] = v_set1(K->p.l[j]);
  for (int i = 0; i < NL; i++) {
    /* Only T[i]'s low 26 bits matter for m, and vpmuludq reads the low 32. */
    const vec m = _mm256_and_si256(_mm256_mul_epu32(T[i], inv), mask);
    for (int j = 0; j < NL; j++) T[i + j] = _mm256_add_epi64(T[i + j], _mm256_mul_epu32(m, p[j]));
    T[i + 1] = _mm256_add_epi64(T[i + 1], _mm256_srli_epi64(T[i], RADIX));
  }
  for (int k = NL; k < 2 * NL - 1; k++) {
    T[k + 1] = _mm256_add_epi64(T[k + 1], _mm256_srli_epi64(T[k], RADIX));
    out[k - NL] = _mm256_and_si256(T[k], mask);
  }
  out[NL - 1] = T[2 * NL - 1];
}

/* x is below p + 1: the canonical value is x, or 0 when x = p. Bit 160 is bit 4 of limb 6 (limb 6 holds 156 .. 181). */
static inline __attribute__((always_inline)) unsigned avx2_hits(const vec *x, const void *table) {
  const vtable *K = table;
  const unsigned low = RADIX - 4 < K->pow_bits ? RADIX - 4 : K->pow_bits;
  const unsigned high = K->pow_bits - low;
  const vec pow6 = v_set1(((1ULL << low) - 1) << 4), pow7 = v_set1((1ULL << high) - 1);
  const vec bits = _mm256_or_si256(_mm256_and_si256(x[6], pow6), _mm256_and_si256(x[7], pow7));
  vec is_p = _mm256_set1_epi64x(-1);
  for (int k = 0; k < NL; k++) is_p = _mm256_and_si256(is_p, _mm256_cmpeq_epi64(x[k], v_set1(K->p.l[k])));
  const vec hit = _mm256_or_si256(_mm256_cmpeq_epi64(bits, v_zero()), is_p);
  return (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(hit));
}

uint64_t lanes_avx2_search(const lanes_search *search) { return lanes_search_run(search); }

#else
#include "lanes.h"
uint64_t lanes_avx2_search(const lanes_search *search) {
  (void)search;
  return UINT64_MAX;
}
#endif
