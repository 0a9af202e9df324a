/*
 * The interface between the addon (poseidon.c) and its multi-lane nonce searches (lanes_ifma.c,
 * lanes_avx2.c). A search gets everything as canonical 256-bit values (four little-endian 64-bit limbs,
 * below p); the round constants arrive already in Montgomery form for R = 2^260, which both vector paths
 * share (5 limbs of 52 bits, 10 limbs of 26 bits), so each path only splits them into its own limbs.
 */
#ifndef SVC_POSEIDON_LANES_H
#define SVC_POSEIDON_LANES_H

#include <stdint.h>

enum { LANES_MAX_WIDTH = 4, LANES_MAX_FULL_ROUNDS = 16, LANES_MAX_PARTIAL_ROUNDS = 128, LANES_MAX_SPARSE = 2 * LANES_MAX_WIDTH - 1 };

typedef struct {
  uint64_t v[4];
} lanes_value;

/* One width's rounds as poseidon.c stores them (see nativePoseidonParameters.ts), each constant x as x * 2^260 mod p. */
typedef struct {
  int width;
  int full_rounds;
  int partial_rounds;
  lanes_value full_c[LANES_MAX_FULL_ROUNDS][LANES_MAX_WIDTH];
  lanes_value mds[LANES_MAX_WIDTH][LANES_MAX_WIDTH];
  lanes_value partial_c[LANES_MAX_PARTIAL_ROUNDS];
  lanes_value sparse[LANES_MAX_PARTIAL_ROUNDS][LANES_MAX_SPARSE];
  lanes_value last_partial[LANES_MAX_WIDTH][LANES_MAX_WIDTH];
} lanes_rounds;

/* One search: Poseidon([prefix..., secret + n mod p]) for n = 0, 1, ... until bits 160 .. 160 + pow_bits - 1 are zero. */
typedef struct {
  const lanes_rounds *rounds;
  lanes_value p;
  lanes_value one_260; /* 2^260 mod p: Montgomery form of 1 */
  lanes_value r2_260;  /* 2^520 mod p: enters Montgomery form */
  uint64_t p_inv_64;   /* -p^-1 mod 2^64 (each path takes the low bits it needs) */
  lanes_value prefix[LANES_MAX_WIDTH - 2];
  lanes_value secret;
  unsigned pow_bits; /* 1 .. 32 */
} lanes_search;

/* The smallest such n, or UINT64_MAX when the table cannot be allocated. Call only where the processor has the path. */
uint64_t lanes_ifma_search(const lanes_search *search);
uint64_t lanes_avx2_search(const lanes_search *search);


#endif
