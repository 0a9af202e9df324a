/*
 * The ceiling the IFMA search is held against: how many 512-bit vpmadd52luq instructions one core retires
 * per nanosecond when nothing else limits them (twelve independent chains, more than latency times ports),
 * and the clock those run at (a chain of dependent imul, three cycles each). Both are timed on the thread's
 * own CPU clock, like the searches they are compared with, so time the scheduler gave to other processes
 * does not count. Prints one JSON line; the bench compiles and runs it (ifmaPeak.ts). Built for those
 * instructions whatever the compiler's target, and run only where the processor has them.
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

enum { CHAINS = 12 };

__attribute__((target("avx512f,avx512ifma"))) static double ifma_per_ns(long rounds) {
  __m512i acc[CHAINS];
  const __m512i b = _mm512_set1_epi64(0x123456789abLL), c = _mm512_set1_epi64(0xfedcba98765LL);
  for (int i = 0; i < CHAINS; i++) acc[i] = _mm512_set1_epi64(i);
  const double started = seconds();
  for (long k = 0; k < rounds; k++) {
#pragma GCC unroll 12
    for (int i = 0; i < CHAINS; i++) acc[i] = _mm512_madd52lo_epu64(acc[i], b, c);
  }
  const double elapsed = seconds() - started;
  __m512i sum = acc[0];
  for (int i = 1; i < CHAINS; i++) sum = _mm512_add_epi64(sum, acc[i]);
  volatile long long sink = _mm512_reduce_add_epi64(sum);
  (void)sink;
  return (double)rounds * CHAINS / elapsed / 1e9;
}

/* imul's latency is three cycles on every x86-64 core with IFMA; adds would not do, newer cores fold them. */
static double clock_ghz(long rounds) {
  uint64_t x = 3;
  const double started = seconds();
  for (long k = 0; k < rounds; k++) __asm__ volatile("imul %0, %0\n\timul %0, %0\n\timul %0, %0\n\timul %0, %0" : "+r"(x));
  const double elapsed = seconds() - started;
  return (double)rounds * 4 * 3 / elapsed / 1e9;
}

int main(void) {
  if (!__builtin_cpu_supports("avx512ifma")) {
    printf("{\"ifmaPerNs\":null,\"clockGhz\":%.3f}\n", clock_ghz(20000000));
    return 0;
  }
  double best = 0, clock = 0;
  for (int repeat = 0; repeat < 3; repeat++) {
    const double rate = ifma_per_ns(20000000);
    if (rate > best) best = rate;
    const double ghz = clock_ghz(20000000);
    if (ghz > clock) clock = ghz;
  }
  printf("{\"ifmaPerNs\":%.3f,\"clockGhz\":%.3f}\n", best, clock);
  return 0;
}
