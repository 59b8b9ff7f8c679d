// AVX-512 kernels of the cache-local encoding (see cache_local/kernels.h).
//
// Query: a whole 64-byte line is one register, so 16 probes per round take
// a multiply (positions), one permute (each lane fetches the 32-bit word its
// probe lands in) and one masked test; k <= 16 needs a single round.
// Add: the key's 512-bit mask is built in one register and ORed into the
// line with one load and one store. Only AVX-512F instructions are used.
#include "filter/cache_local/kernels.h"

#include "filter/x86_simd_target.h"

#ifdef SSTFILTER_X86_SIMD_TARGETS

#include "filter/cache_local/probes.h"

namespace sstfilter {
namespace {

namespace cl = cache_local;

inline __mmask16 RoundMask(int lanes) {
  if (lanes >= 16) return 0xffff;
  return lanes <= 0 ? 0 : static_cast<__mmask16>((1u << lanes) - 1);
}

// The lanes of `lanes` (probes round * 16 + lane) whose bit is clear in the line.
SSTFILTER_AVX512 inline __mmask16 MissingInRound(__m512i bits, __m512i seeds, int round,
                                                 __mmask16 lanes) {
  const __m512i mult = _mm512_load_si512(cl::kProbeMultipliers + round * 16);
  const __m512i bit = _mm512_srli_epi32(_mm512_mullo_epi32(seeds, mult), 23);
  // permutexvar uses the low 4 bits of each index: word = bit >> 5.
  const __m512i word = _mm512_permutexvar_epi32(_mm512_srli_epi32(bit, 5), bits);
  const __m512i want =
      _mm512_sllv_epi32(_mm512_set1_epi32(1), _mm512_and_si512(bit, _mm512_set1_epi32(31)));
  return _mm512_mask_testn_epi32_mask(lanes, word, want);
}

// k <= 16 (every bits/key up to 23) takes one round without a loop: out of
// cache a single query's time is how many queries overlap, which the
// instructions per query bound.
SSTFILTER_AVX512 inline bool LineMayMatchAvx512(const char* line, uint32_t seed, int k) {
  const __m512i bits = _mm512_loadu_si512(line);
  const __m512i seeds = _mm512_set1_epi32(static_cast<int>(seed));
  // (1 << k) - 1 is RoundMask(k) for the k in [1, 16] a kernel is given.
  if (k <= 16) return MissingInRound(bits, seeds, 0, static_cast<__mmask16>((1u << k) - 1)) == 0;
  __mmask16 missing = 0;
  for (int round = 0; round * 16 < k; ++round) {
    missing |= MissingInRound(bits, seeds, round, RoundMask(k - round * 16));
  }
  return missing == 0;
}

SSTFILTER_AVX512 inline void LineAddAvx512(char* line, uint32_t seed, int k) {
  const __m512i one = _mm512_set1_epi64(1);
  const __m512i base = _mm512_setr_epi64(0, 64, 128, 192, 256, 320, 384, 448);
  __m512i mask = _mm512_setzero_si512();
  for (int i = 0; i < k; ++i) {
    const __m512i bit = _mm512_set1_epi64(cl::ProbeBit(seed, i));
    // Shift counts outside [0, 63] (including "negative" ones) give 0.
    mask = _mm512_or_si512(mask, _mm512_sllv_epi64(one, _mm512_sub_epi64(bit, base)));
  }
  _mm512_storeu_si512(line, _mm512_or_si512(_mm512_loadu_si512(line), mask));
}

SSTFILTER_CACHE_LOCAL_KERNELS(SSTFILTER_AVX512, Avx512, LineAddAvx512, LineMayMatchAvx512,
                              LineMayMatchAvx512);

}  // namespace

const CacheLocalKernels* cache_local_internal::Avx512Kernels() { return &kAvx512Kernels; }

}  // namespace sstfilter

#else  // Not x86-64 with GCC/Clang: no AVX-512 kernels.

namespace sstfilter {
const CacheLocalKernels* cache_local_internal::Avx512Kernels() { return nullptr; }
}  // namespace sstfilter

#endif
