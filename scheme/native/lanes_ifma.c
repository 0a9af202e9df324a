/*
 * The nonce search on sixteen lanes of AVX-512 IFMA (vpmadd52luq / vpmadd52huq: 52 x 52-bit products,
 * low and high halves, added into 64-bit lanes), each element in five 52-bit limbs. Compiled for those
 * instructions whatever the build's target; poseidon.c calls it only where the processor has them.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#pragma GCC target("avx512f,avx512ifma,avx512vl")
#include <immintrin.h>
#include <stdint.h>

/* Two independent groups of eight lanes (one zmm register each) per step: the partial rounds form one long
 * dependency chain, and a second group gives the core other work while one waits on it (about 17% faster
 * here); a third costs more in register spills than it gains. */
#define GROUPS 2
#define VL (8 * GROUPS)
#define NL 5
#define RADIX 52

typedef struct {
  __m512i g[GROUPS];
} vec;

#define IFMA_INLINE static inline __attribute__((always_inline))
#define EACH(expr) \
  vec r;           \
  for (int g = 0; g < GROUPS; g++) r.g[g] = (expr); \
  return r

IFMA_INLINE vec v_zero(void) { EACH(_mm512_setzero_si512()); }
IFMA_INLINE vec v_set1(uint64_t x) { EACH(_mm512_set1_epi64((long long)x)); }
IFMA_INLINE vec v_add(vec a, vec b) { EACH(_mm512_add_epi64(a.g[g], b.g[g])); }
IFMA_INLINE vec v_load(const uint64_t *p) { EACH(_mm512_loadu_si512((const void *)(p + 8 * g))); }
IFMA_INLINE vec madd_lo(vec t, vec a, vec b) { EACH(_mm512_madd52lo_epu64(t.g[g], a.g[g], b.g[g])); }
IFMA_INLINE vec madd_hi(vec t, vec a, vec b) { EACH(_mm512_madd52hi_epu64(t.g[g], a.g[g], b.g[g])); }
IFMA_INLINE vec v_srli(vec a, int bits) { EACH(_mm512_srli_epi64(a.g[g], bits)); }
IFMA_INLINE vec v_slli1(vec a) { EACH(_mm512_slli_epi64(a.g[g], 1)); }
IFMA_INLINE vec v_and(vec a, vec b) { EACH(_mm512_and_si512(a.g[g], b.g[g])); }

IFMA_INLINE void v_acc_mul(vec *T, const vec *a, const vec *b) {
  for (int i = 0; i < NL; i++) {
    for (int j = 0; j < NL; j++) {
      T[i + j] = madd_lo(T[i + j], a[j], b[i]);
      T[i + j + 1] = madd_hi(T[i + j + 1], a[j], b[i]);
    }
  }
}

IFMA_INLINE void v_square(vec *T, const vec *a) {
  for (int i = 0; i < NL; i++) {
    for (int j = i + 1; j < NL; j++) {
      T[i + j] = madd_lo(T[i + j], a[j], a[i]);
      T[i + j + 1] = madd_hi(T[i + j + 1], a[j], a[i]);
    }
  }
  for (int k = 0; k < 2 * NL; k++) T[k] = v_slli1(T[k]);
  for (int i = 0; i < NL; i++) {
    T[2 * i] = madd_lo(T[2 * i], a[i], a[i]);
    T[2 * i + 1] = madd_hi(T[2 * i + 1], a[i], a[i]);
  }
}

#define v_reduce ifma_reduce
#define v_hits ifma_hits
static inline void ifma_reduce(vec *out, vec *T, const void *table);
static inline unsigned ifma_hits(const vec *x, const void *table);

#include "lanes_rounds.h"

static inline __attribute__((always_inline)) void ifma_reduce(vec *out, vec *T, const void *table) {
  const vtable *K = table;
  const vec mask = v_set1((1ULL << RADIX) - 1), inv = v_set1(K->p_inv), zero = v_zero();
  vec p[NL];
  for (int j = 0; j < NL; j++) p[j] = v_set1(K->p.l[j]);
  for (int i = 0; i < NL; i++) {
    /* m = T[i] * (-p^-1) mod 2^52 makes T + m p divisible by 2^52 at limb i. */
    const vec m = madd_lo(zero, T[i], inv);
    for (int j = 0; j < NL; j++) {
      T[i + j] = madd_lo(T[i + j], m, p[j]);
      T[i + j + 1] = madd_hi(T[i + j + 1], m, p[j]);
    }
    T[i + 1] = v_add(T[i + 1], v_srli(T[i], RADIX));
  }
  for (int k = NL; k < 2 * NL - 1; k++) {
    T[k + 1] = v_add(T[k + 1], v_srli(T[k], RADIX));
    out[k - NL] = v_and(T[k], mask);
  }
  out[NL - 1] = T[2 * NL - 1];
}

/* x is below p + 1: the canonical value is x, or 0 when x = p. Bits 160 .. are bits 4 .. of limb 3. */
static inline __attribute__((always_inline)) unsigned ifma_hits(const vec *x, const void *table) {
  const vtable *K = table;
  const __m512i pow = _mm512_set1_epi64((long long)(((1ULL << K->pow_bits) - 1) << (160 - 3 * RADIX)));
  unsigned hits = 0;
  for (int g = 0; g < GROUPS; g++) {
    __mmask8 is_p = 0xff;
    for (int k = 0; k < NL; k++) is_p &= _mm512_cmpeq_epu64_mask(x[k].g[g], _mm512_set1_epi64((long long)K->p.l[k]));
    hits |= (unsigned)(_mm512_testn_epi64_mask(x[3].g[g], pow) | is_p) << (8 * g);
  }
  return hits;
}

uint64_t lanes_ifma_search(const lanes_search *search) { return lanes_search_run(search); }

#else
#include "lanes.h"
uint64_t lanes_ifma_search(const lanes_search *search) {
  (void)search;
  return UINT64_MAX;
}
#endif
