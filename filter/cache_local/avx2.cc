// AVX2 kernels of the cache-local encoding (see cache_local/kernels.h).
//
// Query: 8 probes per round. One 32-bit multiply per lane gives 8 bit
// positions; the two 32-byte halves of the line are permuted by word index
// (bits 5..7 of the position) and blended by bit 8, so every lane holds the
// 32-bit word its probe lands in; one test against the probes' bits then
// checks all 8.
// Add: the 512-bit mask of a key is built in two registers (a shift by
// `bit - 64 * lane` is zero outside the probe's word) and ORed into the line
// with one load and one store.
#include "filter/cache_local/kernels.h"

#include "filter/x86_simd_target.h"

#ifdef SSTFILTER_X86_SIMD_TARGETS

#include <algorithm>

#include "filter/cache_local/probes.h"

namespace sstfilter {
namespace {

namespace cl = cache_local;

// Row 8 - lanes (lanes in [0, 8]) is 1 in lanes [0, lanes), 0 after: the
// round's probe bits before each is shifted into place.
alignas(64) constexpr int32_t kLaneOnes[16] = {1, 1, 1, 1, 1, 1, 1, 1,
                                               0, 0, 0, 0, 0, 0, 0, 0};

// One round of probes (round * 8 + lane, lanes [0, lanes) only) in the line
// whose halves are low and high: per lane, the 32-bit word the probe lands
// in and the probe's bit (0 in lanes past `lanes`). A probe's position is
// the top 9 bits of its product p: the word is p >> 28 (its bit 3, the sign
// of p, picks the half) and the bit in the word the next 5. The wanted bits
// come from the seed alone, so only a permute pair, a blend and the final
// test wait for the line's cache miss.
struct RoundProbes {
  __m256i word, want;
};

SSTFILTER_AVX2 inline RoundProbes Round(__m256i low, __m256i high, __m256i seeds, int round,
                                        int lanes) {
  const __m256i mult = _mm256_load_si256(
      reinterpret_cast<const __m256i*>(cl::kProbeMultipliers + round * 8));
  const __m256i p = _mm256_mullo_epi32(seeds, mult);
  const __m256i bit_in_word = _mm256_srli_epi32(_mm256_slli_epi32(p, 4), 27);
  const __m256i ones = _mm256_loadu_si256(
      reinterpret_cast<const __m256i*>(kLaneOnes + 8 - std::min(lanes, 8)));
  const __m256i want = _mm256_sllv_epi32(ones, bit_in_word);
  const __m256i word_index = _mm256_srli_epi32(p, 28);
  const __m256i from_low = _mm256_permutevar8x32_epi32(low, word_index);
  const __m256i from_high = _mm256_permutevar8x32_epi32(high, word_index);
  const __m256i word = _mm256_castps_si256(_mm256_blendv_ps(
      _mm256_castsi256_ps(from_low), _mm256_castsi256_ps(from_high), _mm256_castsi256_ps(p)));
  return {word, want};
}

// Half i (0: bytes 0..31, 1: bytes 32..63) of a 64-byte line.
SSTFILTER_AVX2 inline __m256i Half(const char* line, int i) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(line) + i);
}

// k > 8: rounds of 8, out of line so the common single round stays short.
SSTFILTER_AVX2 __attribute__((noinline)) bool LineMayMatchRoundsAvx2(const char* line,
                                                                    __m256i seeds, int k) {
  const __m256i low = Half(line, 0), high = Half(line, 1);
  __m256i missing = _mm256_setzero_si256();
  for (int round = 0; round * 8 < k; ++round) {
    const RoundProbes r = Round(low, high, seeds, round, k - round * 8);
    missing = _mm256_or_si256(missing, _mm256_andnot_si256(r.word, r.want));
  }
  return _mm256_testz_si256(missing, missing);
}

// k <= 8 (every bits/key up to 14) takes one round without a loop: out of
// cache a single query's time is how many queries overlap, which the
// instructions per query bound (docs/results.md#avx2-only-cpus).
SSTFILTER_AVX2 inline bool LineMayMatchAvx2(const char* line, uint32_t seed, int k) {
  const __m256i seeds = _mm256_set1_epi32(static_cast<int>(seed));
  if (__builtin_expect(k > 8, 0)) return LineMayMatchRoundsAvx2(line, seeds, k);
  const RoundProbes r = Round(Half(line, 0), Half(line, 1), seeds, 0, k);
  return _mm256_testc_si256(r.word, r.want);  // No wanted bit clear in its word.
}

SSTFILTER_AVX2 inline void LineAddAvx2(char* line, uint32_t seed, int k) {
  const __m256i one = _mm256_set1_epi64x(1);
  const __m256i base_low = _mm256_setr_epi64x(0, 64, 128, 192);
  const __m256i base_high = _mm256_setr_epi64x(256, 320, 384, 448);
  __m256i low = _mm256_setzero_si256();
  __m256i high = _mm256_setzero_si256();
  for (int i = 0; i < k; ++i) {
    const __m256i bit = _mm256_set1_epi64x(cl::ProbeBit(seed, i));
    // Shift counts outside [0, 63] (including "negative" ones) give 0.
    low = _mm256_or_si256(low, _mm256_sllv_epi64(one, _mm256_sub_epi64(bit, base_low)));
    high = _mm256_or_si256(high, _mm256_sllv_epi64(one, _mm256_sub_epi64(bit, base_high)));
  }
  auto* p = reinterpret_cast<__m256i*>(line);
  _mm256_storeu_si256(p, _mm256_or_si256(_mm256_loadu_si256(p), low));
  _mm256_storeu_si256(p + 1, _mm256_or_si256(_mm256_loadu_si256(p + 1), high));
}

SSTFILTER_CACHE_LOCAL_KERNELS(SSTFILTER_AVX2, Avx2, LineAddAvx2, LineMayMatchAvx2,
                              LineMayMatchAvx2);

}  // namespace

const CacheLocalKernels* cache_local_internal::Avx2Kernels() { return &kAvx2Kernels; }

}  // namespace sstfilter

#else  // Not x86-64 with GCC/Clang: no AVX2 kernels.

namespace sstfilter {
const CacheLocalKernels* cache_local_internal::Avx2Kernels() { return nullptr; }
}  // namespace sstfilter

#endif
