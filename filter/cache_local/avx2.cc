// AVX2 kernels of the cache-local encoding (see cache_local/kernels.h).
//
// Query: 8 probes per round. One 32-bit multiply per lane gives 8 bit
// positions; the two 32-byte halves of the line are permuted by word index
// (bits 5..7 of the position) and blended by bit 8, so every lane holds the
// 32-bit word its probe lands in; one compare then checks all 8 bits.
// Add: the 512-bit mask of a key is built in two registers (a shift by
// `bit - 64 * lane` is zero outside the probe's word) and ORed into the line
// with one load and one store.
#include "filter/cache_local/kernels.h"

#include "filter/x86_simd_target.h"

#ifdef SSTFILTER_X86_SIMD_TARGETS

#include "filter/cache_local/probes.h"

namespace sstfilter {
namespace {

namespace cl = cache_local;

SSTFILTER_AVX2 inline __m256i LaneMask(int lanes) {
  // All-ones in lanes [0, lanes), lanes clamped to [0, 8].
  const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(lanes), iota);
}

SSTFILTER_AVX2 inline bool LineMayMatchAvx2(const char* line, uint32_t seed, int k) {
  const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(line));
  const __m256i high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(line + 32));
  const __m256i seeds = _mm256_set1_epi32(static_cast<int>(seed));
  const __m256i one = _mm256_set1_epi32(1);
  const __m256i low5 = _mm256_set1_epi32(31);
  __m256i missing = _mm256_setzero_si256();
  for (int round = 0; round * 8 < k; ++round) {
    const __m256i mult = _mm256_load_si256(
        reinterpret_cast<const __m256i*>(cl::kProbeMultipliers + round * 8));
    const __m256i bit = _mm256_srli_epi32(_mm256_mullo_epi32(seeds, mult), 23);
    const __m256i word_index = _mm256_srli_epi32(bit, 5);
    const __m256i from_low = _mm256_permutevar8x32_epi32(low, word_index);
    const __m256i from_high = _mm256_permutevar8x32_epi32(high, word_index);
    // Bit 8 of the position (word index >= 8) moved to the sign bit.
    const __m256i use_high = _mm256_slli_epi32(bit, 23);
    const __m256i word = _mm256_castps_si256(_mm256_blendv_ps(
        _mm256_castsi256_ps(from_low), _mm256_castsi256_ps(from_high),
        _mm256_castsi256_ps(use_high)));
    const __m256i want = _mm256_sllv_epi32(one, _mm256_and_si256(bit, low5));
    const __m256i absent = _mm256_cmpeq_epi32(_mm256_and_si256(word, want),
                                              _mm256_setzero_si256());
    missing = _mm256_or_si256(missing,
                              _mm256_and_si256(absent, LaneMask(k - round * 8)));
  }
  return _mm256_testz_si256(missing, missing);
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

SSTFILTER_CACHE_LOCAL_KERNELS(SSTFILTER_AVX2, Avx2, LineAddAvx2, LineMayMatchAvx2);

}  // namespace

const CacheLocalKernels* cache_local_internal::Avx2Kernels() { return &kAvx2Kernels; }

}  // namespace sstfilter

#else  // Not x86-64 with GCC/Clang: no AVX2 kernels.

namespace sstfilter {
const CacheLocalKernels* cache_local_internal::Avx2Kernels() { return nullptr; }
}  // namespace sstfilter

#endif
