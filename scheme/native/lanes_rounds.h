/*
 * The permutation and the nonce search shared by the multi-lane paths, written once over a lane arithmetic
 * that the including file defines first:
 *
 *   VL, NL, RADIX      lanes per vector, limbs per element, bits per limb (NL * RADIX = 260 in both paths)
 *   vec                one limb of VL elements
 *   v_zero, v_set1, v_add, v_and, v_srli(vec, bits), v_load(const u64 *), v_store(u64 *, vec)
 *   v_acc_mul(T, a, b) T += a * b, limb products accumulated per column of the 2 * NL columns of T, no carries
 *   v_square(T, a)     T = a * a for a cleared T, each cross product computed once and doubled
 *   v_reduce(out, T, K) Montgomery reduction of T by R = 2^260, limbs normalised to RADIX bits
 *   v_hits(x, K)       the lanes (one bit each) whose canonical x has the proof-of-work bits all zero
 *
 * Why the arithmetic is shaped this way: a limb holds RADIX <= 52 bits in a 64-bit lane, so a column can
 * take dozens of products before it overflows. Every linear step (the MDS matrix, the sparse partial-round
 * rows, adding a round constant) is therefore one dot product accumulated unreduced and reduced once, and a
 * round constant c joins the accumulator as c * R (added to the upper half), so no addition ever needs its
 * own carry pass or modular correction. Values stay below 2^256 throughout: a reduction returns
 * T / R + (something below p) and every T here is below p * R.
 */
#ifndef LANES_ROUNDS_H
#define LANES_ROUNDS_H

#include <stdlib.h>
#include <string.h>

#include "lanes.h"

typedef uint64_t u64;

/* A constant split into this path's limbs. */
typedef struct {
  u64 l[NL];
} vconst;

typedef struct {
  vconst full_c[LANES_MAX_FULL_ROUNDS][LANES_MAX_WIDTH];
  vconst mds[LANES_MAX_WIDTH][LANES_MAX_WIDTH];
  vconst partial_c[LANES_MAX_PARTIAL_ROUNDS];
  vconst sparse[LANES_MAX_PARTIAL_ROUNDS][LANES_MAX_SPARSE];
  vconst last_partial[LANES_MAX_WIDTH][LANES_MAX_WIDTH];
  vconst one; /* R mod p */
  vconst r2;  /* R^2 mod p */
  vconst p;
  u64 p_inv; /* -p^-1 mod 2^RADIX */
  int width, full_rounds, partial_rounds;
  unsigned pow_bits;
} vtable;

#define LANES_INLINE static inline __attribute__((always_inline))

static void split(vconst *out, const lanes_value *x) {
  const u64 mask = (1ULL << RADIX) - 1;
  for (int k = 0; k < NL; k++) {
    const int bit = k * RADIX, word = bit / 64, shift = bit % 64;
    u64 limb = x->v[word] >> shift;
    if (shift + RADIX > 64 && word + 1 < 4) limb |= x->v[word + 1] << (64 - shift);
    out->l[k] = limb & mask;
  }
}

static void prepare(vtable *K, const lanes_search *S) {
  const lanes_rounds *R = S->rounds;
  const int w = R->width;
  K->width = w;
  K->full_rounds = R->full_rounds;
  K->partial_rounds = R->partial_rounds;
  K->pow_bits = S->pow_bits;
  for (int r = 0; r < R->full_rounds; r++)
    for (int i = 0; i < w; i++) split(&K->full_c[r][i], &R->full_c[r][i]);
  for (int i = 0; i < w; i++)
    for (int j = 0; j < w; j++) {
      split(&K->mds[i][j], &R->mds[i][j]);
      split(&K->last_partial[i][j], &R->last_partial[i][j]);
    }
  for (int r = 0; r < R->partial_rounds; r++) split(&K->partial_c[r], &R->partial_c[r]);
  for (int r = 0; r + 1 < R->partial_rounds; r++)
    for (int i = 0; i < 2 * w - 1; i++) split(&K->sparse[r][i], &R->sparse[r][i]);
  split(&K->one, &S->one_260);
  split(&K->r2, &S->r2_260);
  split(&K->p, &S->p);
  K->p_inv = S->p_inv_64 & ((1ULL << RADIX) - 1);
}

LANES_INLINE void acc_clear(vec *T) {
  for (int k = 0; k < 2 * NL; k++) T[k] = v_zero();
}

LANES_INLINE void acc_mul_c(vec *T, const vec *a, const vconst *c) {
  vec b[NL];
  for (int k = 0; k < NL; k++) b[k] = v_set1(c->l[k]);
  v_acc_mul(T, a, b);
}

/* T += c * R: the constant joins the value the reduction returns. */
LANES_INLINE void acc_add_c(vec *T, const vconst *c) {
  for (int k = 0; k < NL; k++) T[NL + k] = v_add(T[NL + k], v_set1(c->l[k]));
}

LANES_INLINE void pow5(vec *x, const vtable *K) {
  vec T[2 * NL], x2[NL], x4[NL];
  acc_clear(T);
  v_square(T, x);
  v_reduce(x2, T, K);
  acc_clear(T);
  v_square(T, x2);
  v_reduce(x4, T, K);
  acc_clear(T);
  v_acc_mul(T, x4, x);
  v_reduce(x, T, K);
}

/* out = row . s (+ c when c is not NULL), reduced once. */
LANES_INLINE void dot(vec *out, const vconst *row, vec s[][NL], const int w, const vconst *c, const vtable *K) {
  vec T[2 * NL];
  acc_clear(T);
  for (int j = 0; j < w; j++) acc_mul_c(T, s[j], &row[j]);
  if (c != NULL) acc_add_c(T, c);
  v_reduce(out, T, K);
}

/* s = M s + c (rows 0 .. rows - 1 only; the last round needs only row 0). */
LANES_INLINE void mix_dense(vec s[][NL], const vconst M[LANES_MAX_WIDTH][LANES_MAX_WIDTH], const vconst *c, const int w, const int rows,
                            const vtable *K) {
  vec out[LANES_MAX_WIDTH][NL];
  for (int i = 0; i < rows; i++) dot(out[i], M[i], s, w, c == NULL ? NULL : &c[i], K);
  for (int i = 0; i < rows; i++) memcpy(s[i], out[i], sizeof out[i]);
}

/* T += x * R: x joins the value the reduction returns, as a constant does. */
LANES_INLINE void acc_add(vec *T, const vec *x) {
  for (int k = 0; k < NL; k++) T[NL + k] = v_add(T[NL + k], x[k]);
}

/*
 * The sparse partial-round matrix [[a00, v], [w, I]] and the next round's constant c0 (on element 0):
 * s0' = a00 s0 + v . s[1..] + c0 and si' = si + wi s0, each reduced once. Adding si as si * R costs no
 * product, but the reduction adds up to p each time: si grows by less than 2^254 a round. Elements 1 ..
 * only ever meet constants, whose products stay small for inputs below 2^259, so they may grow for 16
 * rounds; on a `tighten` round si' = one * si + wi s0 brings them back below 2^255.
 */
LANES_INLINE void mix_sparse(vec s[][NL], const vconst *sp, const vconst *c0, const int w, const int tighten, const vtable *K) {
  vec T[2 * NL], s0[NL];
  dot(s0, sp, s, w, c0, K);
  for (int i = 1; i < w; i++) {
    acc_clear(T);
    if (tighten) acc_mul_c(T, s[i], &K->one);
    else acc_add(T, s[i]);
    acc_mul_c(T, s[0], &sp[w - 1 + i]);
    v_reduce(s[i], T, K);
  }
  memcpy(s[0], s0, sizeof s0);
}

/* The constant element i takes after opening round r: the next full round's, or into the partial rounds element 0's only. */
static inline const vconst *opening_constant(const vtable *K, const int r, const int i) {
  if (r + 1 < K->full_rounds / 2) return &K->full_c[r + 1][i];
  return i == 0 ? &K->partial_c[0] : NULL;
}

/*
 * The permutation's first output, from opening round `first` on (the search does round 0 itself); the
 * state enters with that round's constants added, and every later round's are added by the linear step
 * before it.
 */
LANES_INLINE void permute(vec s[][NL], const vtable *K, const int w, const int first) {
  const int half = K->full_rounds / 2, partial = K->partial_rounds, full = K->full_rounds;
  for (int r = first; r < half; r++) {
    for (int i = 0; i < w; i++) pow5(s[i], K);
    vec out[LANES_MAX_WIDTH][NL];
    for (int i = 0; i < w; i++) dot(out[i], K->mds[i], s, w, opening_constant(K, r, i), K);
    for (int i = 0; i < w; i++) memcpy(s[i], out[i], sizeof out[i]);
  }
  for (int r = 0; r < partial; r++) {
    pow5(s[0], K);
    if (r + 1 < partial) mix_sparse(s, K->sparse[r], &K->partial_c[r + 1], w, r % 16 == 15, K);
    else mix_dense(s, K->last_partial, K->full_c[half], w, w, K);
  }
  for (int r = half; r < full; r++) {
    for (int i = 0; i < w; i++) pow5(s[i], K);
    if (r + 1 < full) mix_dense(s, K->mds, K->full_c[r + 1], w, w, K);
    else mix_dense(s, K->mds, NULL, w, 1, K);
  }
}

/* x + 1 mod p for canonical x. */
static void increment(lanes_value *x, const lanes_value *p) {
  for (int i = 0; i < 4 && ++x->v[i] == 0; i++) {
  }
  int equal = 1;
  for (int i = 0; i < 4; i++) equal &= x->v[i] == p->v[i];
  if (equal) memset(x->v, 0, sizeof x->v);
}

/* Enters Montgomery form and adds the first round's constant: x * R + c. */
LANES_INLINE void enter(vec *out, const vec *x, const vconst *c, const vtable *K) {
  vec T[2 * NL];
  acc_clear(T);
  acc_mul_c(T, x, &K->r2);
  acc_add_c(T, c);
  v_reduce(out, T, K);
}

/*
 * The search, VL consecutive nonces per step; the first step with a hit answers its lowest lane. Elements
 * 0 (the capacity, zero) to w - 2 (the prefix) are the same in every lane and step, so their part of the
 * first round, S-box and matrix, is computed once: `fixed` holds, per row, that part plus the constant the
 * row takes next, and each step adds the secret's column to it.
 */
LANES_INLINE u64 search_width(const vtable *K, const lanes_search *S, const int w) {
  vec fixed[LANES_MAX_WIDTH][NL];
  {
    vec prefix[LANES_MAX_WIDTH][NL];
    for (int e = 0; e < w - 1; e++) {
      vconst plain;
      if (e == 0) memset(&plain, 0, sizeof plain);
      else split(&plain, &S->prefix[e - 1]);
      vec x[NL];
      for (int k = 0; k < NL; k++) x[k] = v_set1(plain.l[k]);
      enter(prefix[e], x, &K->full_c[0][e], K);
      pow5(prefix[e], K);
    }
    for (int i = 0; i < w; i++) {
      vec T[2 * NL];
      acc_clear(T);
      for (int e = 0; e < w - 1; e++) acc_mul_c(T, prefix[e], &K->mds[i][e]);
      const vconst *next = opening_constant(K, 0, i);
      if (next != NULL) acc_add_c(T, next);
      v_reduce(fixed[i], T, K);
    }
  }
  lanes_value secret = S->secret;
  for (u64 base = 0;; base += VL) {
    u64 limbs[NL][VL];
    for (int lane = 0; lane < VL; lane++) {
      vconst plain;
      split(&plain, &secret);
      for (int k = 0; k < NL; k++) limbs[k][lane] = plain.l[k];
      increment(&secret, &S->p);
    }
    vec s[LANES_MAX_WIDTH][NL], x[NL], y[NL];
    for (int k = 0; k < NL; k++) x[k] = v_load(limbs[k]);
    enter(y, x, &K->full_c[0][w - 1], K);
    pow5(y, K);
    /* fixed[i] < 2^256 joins as fixed[i] * R: s[i] stays below 2^256 + p. */
    for (int i = 0; i < w; i++) {
      vec T[2 * NL];
      acc_clear(T);
      acc_mul_c(T, y, &K->mds[i][w - 1]);
      acc_add(T, fixed[i]);
      v_reduce(s[i], T, K);
    }
    permute(s, K, w, 1);
    /* Leave Montgomery form: s0 / R, below p + 1. */
    vec T[2 * NL], out[NL];
    acc_clear(T);
    for (int k = 0; k < NL; k++) T[k] = s[0][k];
    v_reduce(out, T, K);
    const unsigned hits = v_hits(out, K);
    if (hits != 0) return base + (u64)__builtin_ctz(hits);
  }
}

static u64 search_3(const vtable *K, const lanes_search *S) { return search_width(K, S, 3); }
static u64 search_4(const vtable *K, const lanes_search *S) { return search_width(K, S, 4); }

static u64 lanes_search_run(const lanes_search *S) {
  vtable *K = aligned_alloc(64, (sizeof(vtable) + 63) / 64 * 64);
  if (K == NULL) return UINT64_MAX;
  prepare(K, S);
  const u64 nonce = S->rounds->width == 3 ? search_3(K, S) : search_4(K, S);
  free(K);
  return nonce;
}

#endif
