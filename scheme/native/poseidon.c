/*
 * Circom-compatible Poseidon of widths t = 3 (two inputs) and t = 4 (three inputs) over a 4-limb prime
 * field, with the burn-address proof-of-work search, as a Node-API addon.
 *
 * The addon carries no constants of its own: `init` receives, for each width, the field modulus, the
 * Montgomery helpers and the round constants and matrices that the TypeScript side computes from the
 * installed `poseidon-lite` (see src/zerc20/poseidon/nativePoseidonParameters.ts for the layout and the
 * optimised partial rounds). Both parameter sets live in the calling thread's instance data, so worker
 * threads never share state.
 *
 * Field elements are kept in Montgomery form in four 64-bit limbs (least significant first), only partly
 * reduced: every value stays below 2p, and is brought below p once, at the output. Multiplication is
 * word-by-word Montgomery (CIOS) in the variant that needs no extra carry word, valid because the modulus's
 * top limb is below 2^63 - 1; with p < 2^254 a product of two values below 2p again lands below 2p, so it
 * needs no final subtraction (both bounds are checked in `init`).
 *
 * Two arithmetics compute the same thing: portable C with unsigned __int128, and on x86-64 processors with
 * BMI2 and ADX inline assembly (a multiplication whose two carry chains, mulx/adcx and mulx/adox, run side
 * by side, and an addition kept in registers), about three times as fast.
 *
 * The proof-of-work search has four paths: the two arithmetics one nonce at a time, and two multi-lane
 * searches that try consecutive nonces side by side (lanes_ifma.c: sixteen lanes of AVX-512 IFMA; lanes_avx2.c:
 * four lanes of AVX2; their shared rounds in lanes_rounds.h). `init` picks the fastest the processor and
 * the operating system support, or the one it is asked for (the tests run every available path against
 * poseidon-lite and against each other). Single hashes always run on the scalar arithmetic.
 */
#include <node_api.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lanes.h"
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#define POSEIDON_HAVE_ADX 1
#endif
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define POSEIDON_HAVE_LANES 1
#endif

typedef uint64_t u64;
typedef unsigned __int128 u128;

enum {
  MIN_WIDTH = 3,
  MAX_WIDTH = 4,
  WIDTHS = MAX_WIDTH - MIN_WIDTH + 1,
  LIMBS = 4,
  MAX_FULL_ROUNDS = 16,
  MAX_PARTIAL_ROUNDS = 128,
  MAX_SPARSE = 2 * MAX_WIDTH - 1
};

typedef struct {
  u64 v[LIMBS];
} fe;

/* The field, shared by every width. `p` must stay the first member: the assembly reads it at offset 0. */
typedef struct {
  u64 p[LIMBS];
  u64 p2[LIMBS]; /* 2p, the bound of partly reduced values */
  u64 inv;       /* -p^-1 mod 2^64 */
  fe r2;   /* R^2 mod p, to enter Montgomery form */
  fe one;  /* R mod p, the Montgomery form of 1 */
  int use_adx; /* the arithmetic of the module-level functions: the last init's choice */
} params;

/* The rounds of one width; arrays are sized for the widest, and only the first `width` entries are used. */
typedef struct {
  int width;
  int full_rounds;
  int partial_rounds;
  fe full_c[MAX_FULL_ROUNDS][MAX_WIDTH];
  fe mds[MAX_WIDTH][MAX_WIDTH];
  fe partial_c[MAX_PARTIAL_ROUNDS];
  /* Partial round r < partial_rounds - 1: row 0 is (m00, v1 .. v(t-1)); row i > 0 is w_i in column 0 and
   * the identity elsewhere, stored as (m00, v1 .. v(t-1), w1 .. w(t-1)). */
  fe sparse[MAX_PARTIAL_ROUNDS][MAX_SPARSE];
  fe last_partial[MAX_WIDTH][MAX_WIDTH];
} rounds;

/* What `init` keeps per thread: the field and one set of rounds per width (index width - MIN_WIDTH), in the
 * scalar arithmetic's Montgomery form and, for the multi-lane searches, in theirs (R = 2^260, canonical). */
typedef struct {
  params field;
  rounds by_width[WIDTHS];
  lanes_rounds lanes_by_width[WIDTHS];
  lanes_value one_260;
  lanes_value r2_260;
} instance;

typedef void (*mul_fn)(fe *r, const fe *a, const fe *b, const params *P);
typedef void (*add_fn)(fe *r, const fe *a, const fe *b, const params *P);

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* r = a - p when a >= p, else a (a < 2p). */
static inline void reduce_once(fe *r, const fe *a, const u64 *p) {
  u64 d[LIMBS];
  u64 borrow = 0;
  for (int i = 0; i < LIMBS; i++) {
    u128 s = (u128)a->v[i] - p[i] - borrow;
    d[i] = (u64)s;
    borrow = (u64)(s >> 64) & 1;
  }
  /* borrow set: a < p, keep a. */
  u64 keep = (u64)0 - borrow;
  for (int i = 0; i < LIMBS; i++) r->v[i] = (a->v[i] & keep) | (d[i] & ~keep);
}

/* r = a + b for a, b < 2p; the result is again below 2p. */
ALWAYS_INLINE void fe_add_portable(fe *r, const fe *a, const fe *b, const params *P) {
  fe s;
  u64 carry = 0;
  for (int i = 0; i < LIMBS; i++) {
    u128 t = (u128)a->v[i] + b->v[i] + carry;
    s.v[i] = (u64)t;
    carry = (u64)(t >> 64);
  }
  /* a + b < 4p < 2^256: the sum fits in four limbs. */
  reduce_once(r, &s, P->p2);
}

#ifdef POSEIDON_HAVE_ADX
/* fe_add_portable in registers: GCC spills the 128-bit temporaries of the C version to the stack. */
ALWAYS_INLINE void fe_add_asm(fe *r, const fe *a, const fe *b, const params *P) {
  u64 r0 = a->v[0], r1 = a->v[1], r2 = a->v[2], r3 = a->v[3], d0, d1, d2, d3;
  __asm__(
      "addq %[b0], %[r0]\n\t"
      "adcq %[b1], %[r1]\n\t"
      "adcq %[b2], %[r2]\n\t"
      "adcq %[b3], %[r3]\n\t"
      "movq %[r0], %[d0]\n\t"
      "subq %[q0], %[d0]\n\t"
      "movq %[r1], %[d1]\n\t"
      "sbbq %[q1], %[d1]\n\t"
      "movq %[r2], %[d2]\n\t"
      "sbbq %[q2], %[d2]\n\t"
      "movq %[r3], %[d3]\n\t"
      "sbbq %[q3], %[d3]\n\t"
      /* No borrow: the sum was at least 2p, keep the difference. */
      "cmovncq %[d0], %[r0]\n\t"
      "cmovncq %[d1], %[r1]\n\t"
      "cmovncq %[d2], %[r2]\n\t"
      "cmovncq %[d3], %[r3]\n\t"
      : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [d0] "=&r"(d0), [d1] "=&r"(d1), [d2] "=&r"(d2),
        [d3] "=&r"(d3)
      : [b0] "m"(b->v[0]), [b1] "m"(b->v[1]), [b2] "m"(b->v[2]), [b3] "m"(b->v[3]), [q0] "m"(P->p2[0]), [q1] "m"(P->p2[1]),
        [q2] "m"(P->p2[2]), [q3] "m"(P->p2[3])
      : "cc");
  r->v[0] = r0;
  r->v[1] = r1;
  r->v[2] = r2;
  r->v[3] = r3;
}
#endif

/* r = a * b / 2^256 mod p, for a, b < 2p; the result is below 2p. */
static inline void fe_mul_portable(fe *r, const fe *a, const fe *b, const params *P) {
  const u64 *p = P->p;
  const u64 inv = P->inv;
  u64 t0 = 0, t1 = 0, t2 = 0, t3 = 0;
  for (int i = 0; i < LIMBS; i++) {
    const u64 bi = b->v[i];
    u128 s = (u128)a->v[0] * bi + t0;
    u64 A = (u64)(s >> 64);
    t0 = (u64)s;
    const u64 m = t0 * inv;
    u128 c = (u128)m * p[0] + t0;
    u64 C = (u64)(c >> 64);

    s = (u128)a->v[1] * bi + t1 + A;
    A = (u64)(s >> 64);
    c = (u128)m * p[1] + (u64)s + C;
    C = (u64)(c >> 64);
    t0 = (u64)c;

    s = (u128)a->v[2] * bi + t2 + A;
    A = (u64)(s >> 64);
    c = (u128)m * p[2] + (u64)s + C;
    C = (u64)(c >> 64);
    t1 = (u64)c;

    s = (u128)a->v[3] * bi + t3 + A;
    A = (u64)(s >> 64);
    c = (u128)m * p[3] + (u64)s + C;
    C = (u64)(c >> 64);
    t2 = (u64)c;

    t3 = C + A;
  }
  r->v[0] = t0;
  r->v[1] = t1;
  r->v[2] = t2;
  r->v[3] = t3;
}

#ifdef POSEIDON_HAVE_ADX
/*
 * One CIOS step: t += a * b[i] (low halves on the OF chain, high halves on the CF chain), into five words
 * whose top word starts at zero. Every intermediate t stays below 4p < 2^256 after its shift, so five
 * words never overflow.
 */
#define MUL_STEP(T0, T1, T2, T3, T4, BOFF) \
  "movq " BOFF "(%[b]), %%rdx\n\t"        \
  "xorl %k[" T4 "], %k[" T4 "]\n\t"       \
  "mulxq 0(%[a]), %[lo], %[hi]\n\t"       \
  "adoxq %[lo], %[" T0 "]\n\t"            \
  "adcxq %[hi], %[" T1 "]\n\t"            \
  "mulxq 8(%[a]), %[lo], %[hi]\n\t"       \
  "adoxq %[lo], %[" T1 "]\n\t"            \
  "adcxq %[hi], %[" T2 "]\n\t"            \
  "mulxq 16(%[a]), %[lo], %[hi]\n\t"      \
  "adoxq %[lo], %[" T2 "]\n\t"            \
  "adcxq %[hi], %[" T3 "]\n\t"            \
  "mulxq 24(%[a]), %[lo], %[hi]\n\t"      \
  "adoxq %[lo], %[" T3 "]\n\t"            \
  "adcxq %[hi], %[" T4 "]\n\t"            \
  "adoxq %[zero], %[" T4 "]\n\t"

/* One reduction step: t += m * p with m = t0 * inv, which clears t0; the caller renames t1..t4 to t0..t3. */
#define REDUCE_STEP(T0, T1, T2, T3, T4)  \
  "movq %[" T0 "], %%rdx\n\t"            \
  "imulq %c[inv](%[P]), %%rdx\n\t"       \
  "xorl %k[lo], %k[lo]\n\t"              \
  "mulxq 0(%[P]), %[lo], %[hi]\n\t"      \
  "adoxq %[lo], %[" T0 "]\n\t"           \
  "adcxq %[hi], %[" T1 "]\n\t"           \
  "mulxq 8(%[P]), %[lo], %[hi]\n\t"      \
  "adoxq %[lo], %[" T1 "]\n\t"           \
  "adcxq %[hi], %[" T2 "]\n\t"           \
  "mulxq 16(%[P]), %[lo], %[hi]\n\t"     \
  "adoxq %[lo], %[" T2 "]\n\t"           \
  "adcxq %[hi], %[" T3 "]\n\t"           \
  "mulxq 24(%[P]), %[lo], %[hi]\n\t"     \
  "adoxq %[lo], %[" T3 "]\n\t"           \
  "adcxq %[hi], %[" T4 "]\n\t"           \
  "adoxq %[zero], %[" T4 "]\n\t"

/* fe_mul_portable with mulx/adcx/adox (BMI2 + ADX); the registers rotate instead of shifting words. */
ALWAYS_INLINE void fe_mul_adx(fe *r, const fe *a, const fe *b, const params *P) {
  u64 t0, t1, t2, t3, t4, lo, hi, zero, rdx;
  __asm__(
      "movq 0(%[b]), %%rdx\n\t"
      "mulxq 0(%[a]), %[t0], %[t1]\n\t"
      "mulxq 8(%[a]), %[lo], %[t2]\n\t"
      "addq %[lo], %[t1]\n\t"
      "mulxq 16(%[a]), %[lo], %[t3]\n\t"
      "adcq %[lo], %[t2]\n\t"
      "mulxq 24(%[a]), %[lo], %[t4]\n\t"
      "adcq %[lo], %[t3]\n\t"
      "adcq $0, %[t4]\n\t"
      "xorl %k[zero], %k[zero]\n\t"
      REDUCE_STEP("t0", "t1", "t2", "t3", "t4")
      MUL_STEP("t1", "t2", "t3", "t4", "t0", "8")
      REDUCE_STEP("t1", "t2", "t3", "t4", "t0")
      MUL_STEP("t2", "t3", "t4", "t0", "t1", "16")
      REDUCE_STEP("t2", "t3", "t4", "t0", "t1")
      MUL_STEP("t3", "t4", "t0", "t1", "t2", "24")
      REDUCE_STEP("t3", "t4", "t0", "t1", "t2")
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [lo] "=&r"(lo), [hi] "=&r"(hi),
        [zero] "=&r"(zero), "=&d"(rdx)
      : [a] "r"(a), [b] "r"(b), [P] "r"(P), [inv] "i"(offsetof(params, inv)), "m"(*a), "m"(*b), "m"(*P)
      : "cc");
  r->v[0] = t4;
  r->v[1] = t0;
  r->v[2] = t1;
  r->v[3] = t2;
}

/* Whether this processor has mulx (BMI2) and adcx/adox (ADX). */
static int cpu_has_adx(void) {
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
  return (ebx & (1u << 8)) != 0 && (ebx & (1u << 19)) != 0;
}
#endif

#ifdef POSEIDON_HAVE_LANES
/* The register state the operating system saves (XCR0); 0 when it does not enable XSAVE. */
static u64 os_saved_state(void) {
  unsigned int eax, ebx, ecx, edx;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || (ecx & (1u << 27)) == 0) return 0;
  unsigned int lo, hi;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((u64)hi << 32) | lo;
}

/* AVX2, with the ymm registers saved by the operating system. */
static int cpu_has_avx2(void) {
  unsigned int eax, ebx, ecx, edx;
  if ((os_saved_state() & 0x6) != 0x6) return 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
  return (ebx & (1u << 5)) != 0;
}

/* AVX-512 F, IFMA and VL, with the opmask and zmm registers saved by the operating system. */
static int cpu_has_ifma(void) {
  unsigned int eax, ebx, ecx, edx;
  if ((os_saved_state() & 0xe6) != 0xe6) return 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
  return (ebx & (1u << 16)) != 0 && (ebx & (1u << 21)) != 0 && (ebx & (1u << 31)) != 0;
}
#endif

/* The round functions take the width, the multiplication and the addition as constant arguments, so each
 * permutation below is compiled once per combination with the loops unrolled and both operations inlined. */
ALWAYS_INLINE void pow5(fe *x, const params *P, mul_fn mul) {
  fe x2, x4;
  mul(&x2, x, x, P);
  mul(&x4, &x2, &x2, P);
  mul(x, &x4, x, P);
}

ALWAYS_INLINE void mix_dense(fe *s, const fe m[MAX_WIDTH][MAX_WIDTH], const int width, const params *P, mul_fn mul, add_fn add) {
  fe out[MAX_WIDTH];
  for (int row = 0; row < width; row++) {
    fe acc, term;
    mul(&acc, &m[row][0], &s[0], P);
    for (int col = 1; col < width; col++) {
      mul(&term, &m[row][col], &s[col], P);
      add(&acc, &acc, &term, P);
    }
    out[row] = acc;
  }
  memcpy(s, out, (size_t)width * sizeof(fe));
}

ALWAYS_INLINE void mix_sparse(fe *s, const fe sp[MAX_SPARSE], const int width, const params *P, mul_fn mul, add_fn add) {
  fe s0, term;
  mul(&s0, &sp[0], &s[0], P);
  for (int i = 1; i < width; i++) {
    mul(&term, &sp[i], &s[i], P);
    add(&s0, &s0, &term, P);
  }
  /* Rows below 0 read the old s[0], so s0 is written last. */
  for (int i = 1; i < width; i++) {
    mul(&term, &sp[width - 1 + i], &s[0], P);
    add(&s[i], &s[i], &term, P);
  }
  s[0] = s0;
}

ALWAYS_INLINE void full_round(fe *s, int round, const rounds *R, const int width, const params *P, mul_fn mul, add_fn add) {
  for (int i = 0; i < width; i++) {
    add(&s[i], &s[i], &R->full_c[round][i], P);
    pow5(&s[i], P, mul);
  }
  mix_dense(s, R->mds, width, P, mul, add);
}

/* The permutation's first output for the Montgomery-form state s of `width` elements (modified in place). */
ALWAYS_INLINE void permute_with(fe *s, const rounds *R, const int width, const params *P, mul_fn mul, add_fn add) {
  const int half = R->full_rounds / 2;
  for (int r = 0; r < half; r++) full_round(s, r, R, width, P, mul, add);
  for (int r = 0; r < R->partial_rounds; r++) {
    add(&s[0], &s[0], &R->partial_c[r], P);
    pow5(&s[0], P, mul);
    if (r + 1 < R->partial_rounds) mix_sparse(s, R->sparse[r], width, P, mul, add);
    else mix_dense(s, R->last_partial, width, P, mul, add);
  }
  for (int r = half; r < R->full_rounds; r++) full_round(s, r, R, width, P, mul, add);
}

static void permute3_portable(fe *s, const rounds *R, const params *P) { permute_with(s, R, 3, P, fe_mul_portable, fe_add_portable); }
static void permute4_portable(fe *s, const rounds *R, const params *P) { permute_with(s, R, 4, P, fe_mul_portable, fe_add_portable); }

#ifdef POSEIDON_HAVE_ADX
static void permute3_adx(fe *s, const rounds *R, const params *P) { permute_with(s, R, 3, P, fe_mul_adx, fe_add_asm); }
static void permute4_adx(fe *s, const rounds *R, const params *P) { permute_with(s, R, 4, P, fe_mul_adx, fe_add_asm); }
#endif

/* Permutes s with the rounds R (whose width `init` checked to be 3 or 4). */
static void permute(fe *s, const rounds *R, const params *P, int use_adx) {
#ifdef POSEIDON_HAVE_ADX
  if (use_adx) {
    if (R->width == 3) permute3_adx(s, R, P);
    else permute4_adx(s, R, P);
    return;
  }
#else
  (void)use_adx;
#endif
  if (R->width == 3) permute3_portable(s, R, P);
  else permute4_portable(s, R, P);
}

static inline void to_mont(fe *r, const fe *a, const params *P) { fe_mul_portable(r, a, &P->r2, P); }

/* The canonical value (below p) of the Montgomery-form a. */
static inline void from_mont(fe *r, const fe *a, const params *P) {
  const fe unit = {{1, 0, 0, 0}};
  fe t;
  /* (a + m p) / 2^256 < p + 1 for a < 2p: one subtraction makes it canonical. */
  fe_mul_portable(&t, a, &unit, P);
  reduce_once(r, &t, P->p);
}

/* Reduces a 256-bit value below p (p > 2^253, so at most a few subtractions). */
static void reduce_full(fe *a, const u64 *p) {
  for (;;) {
    u64 d[LIMBS];
    u64 borrow = 0;
    for (int i = 0; i < LIMBS; i++) {
      u128 s = (u128)a->v[i] - p[i] - borrow;
      d[i] = (u64)s;
      borrow = (u64)(s >> 64) & 1;
    }
    if (borrow) return;
    memcpy(a->v, d, sizeof d);
  }
}

/* ---- Node-API glue ---- */

static napi_value throw_error(napi_env env, const char *code, const char *message) {
  napi_throw_error(env, code, message);
  return NULL;
}

static void free_instance(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  free(data);
}

/* Reads a non-negative BigInt below 2^256 into four limbs; returns 0 and throws otherwise. */
static int read_u256(napi_env env, napi_value value, fe *out) {
  napi_valuetype type;
  if (napi_typeof(env, value, &type) != napi_ok || type != napi_bigint) {
    napi_throw_type_error(env, "ERR_POSEIDON_INPUT", "expected a bigint");
    return 0;
  }
  size_t count = 0;
  int sign = 0;
  /* Node answers the word count only when both the sign and the words pointers are NULL. */
  if (napi_get_value_bigint_words(env, value, NULL, &count, NULL) != napi_ok) return 0;
  if (count > LIMBS) {
    napi_throw_range_error(env, "ERR_POSEIDON_INPUT", "expected a bigint below 2^256");
    return 0;
  }
  memset(out->v, 0, sizeof out->v);
  count = LIMBS;
  if (napi_get_value_bigint_words(env, value, &sign, &count, out->v) != napi_ok) return 0;
  if (sign) {
    int zero = 1;
    for (int i = 0; i < LIMBS; i++) zero &= out->v[i] == 0;
    if (!zero) {
      napi_throw_range_error(env, "ERR_POSEIDON_INPUT", "expected a non-negative bigint");
      return 0;
    }
  }
  return 1;
}

/* Reads an input as `poseidon-lite` takes it (reduced mod p) into Montgomery form; returns 0 and throws otherwise. */
static int read_element(napi_env env, napi_value value, const params *P, fe *out) {
  fe plain;
  if (!read_u256(env, value, &plain)) return 0;
  reduce_full(&plain, P->p);
  to_mont(out, &plain, P);
  return 1;
}

static napi_value make_u256(napi_env env, const fe *a) {
  napi_value out;
  if (napi_create_bigint_words(env, 0, LIMBS, a->v, &out) != napi_ok) return NULL;
  return out;
}

/* The field part every parameter block starts with after its header: p, inv, r2, one. */
enum { FIELD_BYTES = sizeof(u64) * LIMBS + sizeof(u64) + 2 * sizeof(fe) };

/*
 * Reads one parameter block (layout in nativePoseidonParameters.ts) into I; the first block read sets the
 * field, later ones must repeat it exactly. Returns NULL, or what is wrong with the block.
 */
static const char *read_parameter_block(const unsigned char *bytes, size_t length, instance *I, int *seen, int first) {
  u64 header[3];
  if (length < sizeof header + FIELD_BYTES) return "parameter length mismatch";
  memcpy(header, bytes, sizeof header);
  const u64 width = header[0], full = header[1], partial = header[2];
  if (width < MIN_WIDTH || width > MAX_WIDTH) return "unsupported width";
  if (seen[width - MIN_WIDTH]) return "two parameter sets of the same width";
  if (full == 0 || full % 2 != 0 || full > MAX_FULL_ROUNDS || partial < 1 || partial > MAX_PARTIAL_ROUNDS) {
    return "unsupported round counts";
  }
  /* Full constants, mds, partial constants, sparse matrices, last partial matrix. */
  const size_t elements = full * width + width * width + partial + (partial - 1) * (2 * width - 1) + width * width;
  if (length != sizeof header + FIELD_BYTES + elements * sizeof(fe)) return "parameter length mismatch";

  const unsigned char *cursor = bytes + sizeof header;
  params field;
  memset(&field, 0, sizeof field);
  memcpy(field.p, cursor, sizeof field.p);
  cursor += sizeof field.p;
  memcpy(&field.inv, cursor, sizeof field.inv);
  cursor += sizeof field.inv;
  memcpy(&field.r2, cursor, sizeof(fe));
  cursor += sizeof(fe);
  memcpy(&field.one, cursor, sizeof(fe));
  cursor += sizeof(fe);
  if (first) {
    memcpy(I->field.p, field.p, sizeof field.p);
    I->field.inv = field.inv;
    I->field.r2 = field.r2;
    I->field.one = field.one;
  } else if (memcmp(I->field.p, field.p, sizeof field.p) != 0 || I->field.inv != field.inv ||
             memcmp(&I->field.r2, &field.r2, sizeof(fe)) != 0 || memcmp(&I->field.one, &field.one, sizeof(fe)) != 0) {
    return "the parameter sets disagree on the field";
  }

  rounds *R = &I->by_width[width - MIN_WIDTH];
  R->width = (int)width;
  R->full_rounds = (int)full;
  R->partial_rounds = (int)partial;
  /* The arrays are laid out for MAX_WIDTH, the block for `width`: copy element by element. */
  for (u64 r = 0; r < full; r++) {
    for (u64 i = 0; i < width; i++, cursor += sizeof(fe)) memcpy(&R->full_c[r][i], cursor, sizeof(fe));
  }
  for (u64 row = 0; row < width; row++) {
    for (u64 col = 0; col < width; col++, cursor += sizeof(fe)) memcpy(&R->mds[row][col], cursor, sizeof(fe));
  }
  for (u64 r = 0; r < partial; r++, cursor += sizeof(fe)) memcpy(&R->partial_c[r], cursor, sizeof(fe));
  for (u64 r = 0; r + 1 < partial; r++) {
    for (u64 i = 0; i < 2 * width - 1; i++, cursor += sizeof(fe)) memcpy(&R->sparse[r][i], cursor, sizeof(fe));
  }
  for (u64 row = 0; row < width; row++) {
    for (u64 col = 0; col < width; col++, cursor += sizeof(fe)) memcpy(&R->last_partial[row][col], cursor, sizeof(fe));
  }
  seen[width - MIN_WIDTH] = 1;
  return NULL;
}

static napi_value js_poseidon2(napi_env env, napi_callback_info info);
static napi_value js_poseidon3(napi_env env, napi_callback_info info);
static napi_value js_search(napi_env env, napi_callback_info info);
static napi_value js_path(napi_env env, napi_callback_info info);

/* The search paths, slowest first (auto takes the last one available); their names are what `path()` answers
 * and `init` takes. Four AVX2 lanes of 26-bit limbs lose to one mulx/adx lane of 64-bit limbs (measured in
 * `make bench`), so AVX2 serves processors without ADX. */
enum { PATH_PORTABLE, PATH_AVX2, PATH_MULX_ADX, PATH_IFMA, PATHS };
static const char *const PATH_NAMES[PATHS] = {"portable", "avx2", "mulx-adx", "avx512-ifma"};

static int path_available(int path) {
  switch (path) {
    case PATH_PORTABLE:
      return 1;
#ifdef POSEIDON_HAVE_ADX
    case PATH_MULX_ADX:
      return cpu_has_adx();
#endif
#ifdef POSEIDON_HAVE_LANES
    case PATH_AVX2:
      return cpu_has_avx2();
    case PATH_IFMA:
      return cpu_has_ifma();
#endif
    default:
      return 0;
  }
}

/*
 * What a function returned by init is bound to: its search path and the arithmetic of its single hashes
 * (mulx/adx wherever the processor has it, except on the portable path). Static, so a function can never
 * outlive its data; two inits in one thread (the tests load every path) stay apart.
 */
typedef struct {
  int path;
  int use_adx;
} binding;
static const binding BINDINGS[PATHS][2] = {
    {{PATH_PORTABLE, 0}, {PATH_PORTABLE, 0}},
    {{PATH_AVX2, 0}, {PATH_AVX2, 1}},
    {{PATH_MULX_ADX, 0}, {PATH_MULX_ADX, 1}},
    {{PATH_IFMA, 0}, {PATH_IFMA, 1}},
};

/* Creates { poseidon2, poseidon3, searchBurnNonce, path } bound to `b`; returns 0 when Node-API fails. */
static int bind_functions(napi_env env, const binding *b, napi_value *out) {
  static const struct {
    const char *name;
    napi_callback callback;
  } functions[] = {{"poseidon2", js_poseidon2}, {"poseidon3", js_poseidon3}, {"searchBurnNonce", js_search}, {"path", js_path}};
  if (napi_create_object(env, out) != napi_ok) return 0;
  for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
    napi_value fn;
    if (napi_create_function(env, functions[i].name, NAPI_AUTO_LENGTH, functions[i].callback, (void *)b, &fn) != napi_ok ||
        napi_set_named_property(env, *out, functions[i].name, fn) != napi_ok) {
      return 0;
    }
  }
  return 1;
}

/* A call's binding: the function's own, else (module-level functions) the thread's last init. */
static binding call_binding(const instance *I, void *data) {
  if (data != NULL) return *(const binding *)data;
  const binding fallback = {I->field.use_adx ? PATH_MULX_ADX : PATH_PORTABLE, I->field.use_adx};
  return fallback;
}

/* Canonical x * 2^260 mod p for the scalar Montgomery form x_m = x * 2^256 (below 2p). */
static void to_lanes_form(lanes_value *out, const fe *x_m, const fe *sixteen_m, const params *P) {
  fe t, canonical;
  fe_mul_portable(&t, x_m, sixteen_m, P);
  reduce_once(&canonical, &t, P->p);
  memcpy(out->v, canonical.v, sizeof out->v);
}

/* Fills the multi-lane searches' copy of every round constant and their R = 2^260 helpers. */
static void prepare_lanes(instance *I) {
  const params *P = &I->field;
  fe sixteen_m = P->one;
  for (int i = 0; i < 4; i++) fe_add_portable(&sixteen_m, &sixteen_m, &sixteen_m, P);
  for (int index = 0; index < WIDTHS; index++) {
    const rounds *R = &I->by_width[index];
    lanes_rounds *L = &I->lanes_by_width[index];
    const int w = R->width;
    L->width = w;
    L->full_rounds = R->full_rounds;
    L->partial_rounds = R->partial_rounds;
    for (int r = 0; r < R->full_rounds; r++)
      for (int i = 0; i < w; i++) to_lanes_form(&L->full_c[r][i], &R->full_c[r][i], &sixteen_m, P);
    for (int i = 0; i < w; i++)
      for (int j = 0; j < w; j++) {
        to_lanes_form(&L->mds[i][j], &R->mds[i][j], &sixteen_m, P);
        to_lanes_form(&L->last_partial[i][j], &R->last_partial[i][j], &sixteen_m, P);
      }
    for (int r = 0; r < R->partial_rounds; r++) to_lanes_form(&L->partial_c[r], &R->partial_c[r], &sixteen_m, P);
    for (int r = 0; r + 1 < R->partial_rounds; r++)
      for (int i = 0; i < 2 * w - 1; i++) to_lanes_form(&L->sparse[r][i], &R->sparse[r][i], &sixteen_m, P);
  }
  to_lanes_form(&I->one_260, &P->one, &sixteen_m, P);
  /* one_260 * one_260 / 2^256 = 2^264; times 2^512 / 2^256 = 2^520. */
  fe one_260, t, u, canonical;
  memcpy(one_260.v, I->one_260.v, sizeof one_260.v);
  fe_mul_portable(&t, &one_260, &one_260, P);
  fe_mul_portable(&u, &t, &P->r2, P);
  reduce_once(&canonical, &u, P->p);
  memcpy(I->r2_260.v, canonical.v, sizeof canonical.v);
}

/* Reads init's optional path name: "auto" (or absent) picks the fastest available; returns -1 and throws otherwise. */
static int read_path(napi_env env, size_t argc, napi_value *argv) {
  if (argc < 2) return -2;
  napi_valuetype type;
  if (napi_typeof(env, argv[1], &type) != napi_ok) return -1;
  if (type == napi_undefined) return -2;
  char name[32];
  size_t length = 0;
  if (type != napi_string || napi_get_value_string_utf8(env, argv[1], name, sizeof name, &length) != napi_ok) {
    napi_throw_type_error(env, "ERR_POSEIDON_PATH", "expected a path name");
    return -1;
  }
  if (strcmp(name, "auto") == 0) return -2;
  for (int path = 0; path < PATHS; path++) {
    if (strcmp(name, PATH_NAMES[path]) != 0) continue;
    if (!path_available(path)) {
      napi_throw_error(env, "ERR_POSEIDON_PATH_UNAVAILABLE", "this processor or operating system does not support the requested path");
      return -1;
    }
    return path;
  }
  napi_throw_range_error(env, "ERR_POSEIDON_PATH", "unknown path");
  return -1;
}

/*
 * init(parameters: Uint8Array[], path?: string): loads one parameter block per width (3 and 4, both
 * required) for this thread and returns the functions bound to `path` ("auto", the default, picks the
 * fastest this processor supports; naming one it lacks throws ERR_POSEIDON_PATH_UNAVAILABLE).
 */
static napi_value js_init(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return NULL;
  bool is_array = false;
  if (argc < 1 || napi_is_array(env, argv[0], &is_array) != napi_ok || !is_array) {
    return throw_error(env, "ERR_POSEIDON_PARAMETERS", "expected an array of parameter blocks");
  }
  int path = read_path(env, argc, argv);
  if (path == -1) return NULL;
  if (path == -2) {
    path = PATH_PORTABLE;
    for (int candidate = PATHS - 1; candidate > PATH_PORTABLE; candidate--) {
      if (path_available(candidate)) {
        path = candidate;
        break;
      }
    }
  }
  uint32_t blocks = 0;
  if (napi_get_array_length(env, argv[0], &blocks) != napi_ok) return NULL;
  if (blocks != WIDTHS) return throw_error(env, "ERR_POSEIDON_PARAMETERS", "expected one parameter block per width");

  instance *I = calloc(1, sizeof(instance));
  if (I == NULL) return throw_error(env, "ERR_POSEIDON_PARAMETERS", "out of memory");
  int seen[WIDTHS] = {0};
  for (uint32_t index = 0; index < blocks; index++) {
    napi_value block;
    bool is_typed = false;
    napi_typedarray_type kind;
    size_t length;
    void *bytes;
    if (napi_get_element(env, argv[0], index, &block) != napi_ok || napi_is_typedarray(env, block, &is_typed) != napi_ok || !is_typed ||
        napi_get_typedarray_info(env, block, &kind, &length, &bytes, NULL, NULL) != napi_ok || kind != napi_uint8_array) {
      free(I);
      return throw_error(env, "ERR_POSEIDON_PARAMETERS", "expected a Uint8Array of parameters");
    }
    const char *problem = read_parameter_block((const unsigned char *)bytes, length, I, seen, index == 0);
    if (problem != NULL) {
      free(I);
      return throw_error(env, "ERR_POSEIDON_PARAMETERS", problem);
    }
  }
  /* `blocks` equals WIDTHS and no width repeats, so every width was seen. */

  params *P = &I->field;
  /* Partly reduced products need p < 2^254 (which also satisfies the carry-free multiplication); p > 2^252
   * bounds reduce_full; inv must be -p^-1 mod 2^64. */
  if (P->p[3] >= (1ULL << 62) || P->p[3] < (1ULL << 60) || (u64)(P->p[0] * P->inv) != (u64)-1) {
    free(I);
    return throw_error(env, "ERR_POSEIDON_PARAMETERS", "unsupported modulus");
  }
  u64 carry = 0;
  for (int i = 0; i < LIMBS; i++) {
    P->p2[i] = (P->p[i] << 1) | carry;
    carry = P->p[i] >> 63;
  }
  prepare_lanes(I);
#ifdef POSEIDON_HAVE_ADX
  P->use_adx = path != PATH_PORTABLE && cpu_has_adx();
#else
  P->use_adx = 0;
#endif
  napi_value bound;
  if (!bind_functions(env, &BINDINGS[path][P->use_adx], &bound)) {
    free(I);
    return NULL;
  }
  /* Node does not finalise instance data it overwrites; no function keeps a pointer into it between calls,
   * so the previous set can go at once. */
  void *previous = NULL;
  if (napi_get_instance_data(env, &previous) != napi_ok) previous = NULL;
  if (napi_set_instance_data(env, I, free_instance, NULL) != napi_ok) {
    free(I);
    return throw_error(env, "ERR_POSEIDON_PARAMETERS", "cannot keep the parameters");
  }
  free(previous);
  return bound;
}

static const instance *require_instance(napi_env env) {
  void *data = NULL;
  if (napi_get_instance_data(env, &data) != napi_ok || data == NULL) {
    throw_error(env, "ERR_POSEIDON_NOT_INITIALISED", "init() was not called in this thread");
    return NULL;
  }
  return (const instance *)data;
}

/* Poseidon of the `width - 1` bigint arguments (each in [0, 2^256), reduced mod p), with width-`width` rounds. */
static napi_value hash_arguments(napi_env env, napi_callback_info info, const int width) {
  const instance *I = require_instance(env);
  if (I == NULL) return NULL;
  const params *P = &I->field;
  size_t argc = MAX_WIDTH - 1;
  napi_value argv[MAX_WIDTH - 1];
  void *data = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, &data) != napi_ok) return NULL;
  if (argc < (size_t)(width - 1)) return throw_error(env, "ERR_POSEIDON_INPUT", width == 3 ? "expected two bigints" : "expected three bigints");
  fe s[MAX_WIDTH];
  memset(s, 0, sizeof s);
  for (int i = 1; i < width; i++) {
    if (!read_element(env, argv[i - 1], P, &s[i])) return NULL;
  }
  permute(s, &I->by_width[width - MIN_WIDTH], P, call_binding(I, data).use_adx);
  fe out;
  from_mont(&out, &s[0], P);
  return make_u256(env, &out);
}

/* poseidon2(a: bigint, b: bigint): bigint — Poseidon([a mod p, b mod p]), inputs in [0, 2^256). */
static napi_value js_poseidon2(napi_env env, napi_callback_info info) { return hash_arguments(env, info, 3); }

/* poseidon3(a: bigint, b: bigint, c: bigint): bigint — Poseidon([a mod p, b mod p, c mod p]), inputs in [0, 2^256). */
static napi_value js_poseidon3(napi_env env, napi_callback_info info) { return hash_arguments(env, info, 4); }

/* Reads a bigint as `poseidon-lite` takes it (reduced mod p), canonical; returns 0 and throws otherwise. */
static int read_canonical(napi_env env, napi_value value, const params *P, fe *out) {
  if (!read_u256(env, value, out)) return 0;
  reduce_full(out, P->p);
  return 1;
}

/* The scalar search: one nonce at a time, the secret kept in Montgomery form and incremented by one. */
static u64 search_scalar(const instance *I, const rounds *R, const fe *prefix, const fe *secret, u64 pow_mask, int use_adx) {
  const params *P = &I->field;
  const int width = R->width;
  fe start[MAX_WIDTH];
  memset(start, 0, sizeof start);
  for (int i = 0; i < width - 2; i++) to_mont(&start[1 + i], &prefix[i], P);
  fe secret_m;
  to_mont(&secret_m, secret, P);
  for (u64 nonce = 0;; nonce++) {
    fe s[MAX_WIDTH];
    memcpy(s, start, sizeof s);
    s[width - 1] = secret_m;
    permute(s, R, P, use_adx);
    fe h;
    from_mont(&h, &s[0], P);
    if ((h.v[2] & pow_mask) == 0) return nonce;
    /* secret + 1 mod p, in Montgomery form. */
    fe_add_portable(&secret_m, &secret_m, &P->one, P);
  }
}

/*
 * searchBurnNonce(prefix: bigint[], secretBase: bigint, powBits: number): bigint — the smallest nonce such
 * that bits 160 .. 160 + powBits - 1 of Poseidon([...prefix, (secretBase + nonce) mod p]) are all zero; the
 * prefix length (1 or 2) picks the width (3 or 4). Every path answers the same nonce.
 */
static napi_value js_search(napi_env env, napi_callback_info info) {
  const instance *I = require_instance(env);
  if (I == NULL) return NULL;
  const params *P = &I->field;
  size_t argc = 3;
  napi_value argv[3];
  void *data = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, &data) != napi_ok) return NULL;
  if (argc < 3) return throw_error(env, "ERR_POSEIDON_INPUT", "expected a prefix, a bigint and a bit count");
  const binding b = call_binding(I, data);
  bool is_array = false;
  uint32_t prefix_length = 0;
  if (napi_is_array(env, argv[0], &is_array) != napi_ok || !is_array || napi_get_array_length(env, argv[0], &prefix_length) != napi_ok ||
      prefix_length < MIN_WIDTH - 2 || prefix_length > MAX_WIDTH - 2) {
    napi_throw_type_error(env, "ERR_POSEIDON_INPUT", "expected a prefix of one or two bigints");
    return NULL;
  }
  const int width = (int)prefix_length + 2;
  fe prefix[MAX_WIDTH - 2];
  for (uint32_t i = 0; i < prefix_length; i++) {
    napi_value element;
    if (napi_get_element(env, argv[0], i, &element) != napi_ok) return NULL;
    if (!read_canonical(env, element, P, &prefix[i])) return NULL;
  }
  fe secret;
  if (!read_canonical(env, argv[1], P, &secret)) return NULL;
  uint32_t pow_bits = 0;
  if (napi_get_value_uint32(env, argv[2], &pow_bits) != napi_ok || pow_bits < 1 || pow_bits > 32) {
    return throw_error(env, "ERR_POSEIDON_INPUT", "expected a bit count from 1 to 32");
  }
  u64 nonce;
  if (b.path == PATH_IFMA || b.path == PATH_AVX2) {
    lanes_search search;
    memset(&search, 0, sizeof search);
    search.rounds = &I->lanes_by_width[width - MIN_WIDTH];
    memcpy(search.p.v, P->p, sizeof search.p.v);
    search.one_260 = I->one_260;
    search.r2_260 = I->r2_260;
    search.p_inv_64 = P->inv;
    for (uint32_t i = 0; i < prefix_length; i++) memcpy(search.prefix[i].v, prefix[i].v, sizeof prefix[i].v);
    memcpy(search.secret.v, secret.v, sizeof secret.v);
    search.pow_bits = pow_bits;
    nonce = b.path == PATH_IFMA ? lanes_ifma_search(&search) : lanes_avx2_search(&search);
    if (nonce == UINT64_MAX) return throw_error(env, "ERR_POSEIDON_SEARCH", "out of memory");
  } else {
    /* Bit 160 is bit 32 of limb 2; up to 32 bits stay inside that limb. */
    const u64 pow_mask = ((1ULL << pow_bits) - 1) << 32;
    nonce = search_scalar(I, &I->by_width[width - MIN_WIDTH], prefix, &secret, pow_mask, b.use_adx);
  }
  napi_value out;
  if (napi_create_bigint_uint64(env, nonce, &out) != napi_ok) return NULL;
  return out;
}

/* path(): the search path this function's calls use ("avx512-ifma", "avx2", "mulx-adx" or "portable"). */
static napi_value js_path(napi_env env, napi_callback_info info) {
  const instance *I = require_instance(env);
  if (I == NULL) return NULL;
  void *data = NULL;
  if (napi_get_cb_info(env, info, NULL, NULL, NULL, &data) != napi_ok) return NULL;
  napi_value out;
  if (napi_create_string_utf8(env, PATH_NAMES[call_binding(I, data).path], NAPI_AUTO_LENGTH, &out) != napi_ok) return NULL;
  return out;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor properties[] = {
      {"init", NULL, js_init, NULL, NULL, NULL, napi_enumerable, NULL},
      {"poseidon2", NULL, js_poseidon2, NULL, NULL, NULL, napi_enumerable, NULL},
      {"poseidon3", NULL, js_poseidon3, NULL, NULL, NULL, napi_enumerable, NULL},
      {"searchBurnNonce", NULL, js_search, NULL, NULL, NULL, napi_enumerable, NULL},
      {"path", NULL, js_path, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, sizeof properties / sizeof properties[0], properties) != napi_ok) return NULL;
  return exports;
}
