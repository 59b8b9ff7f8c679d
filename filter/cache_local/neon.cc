// NEON (64-bit ARM Advanced SIMD) query kernels of the cache-local encoding
// (see cache_local/kernels.h). Adding keys stays scalar: the bytes are the
// scalar builder's by construction, and building is not where a filter's
// time goes on a read path.
//
// Query: 4 probes per round, one 32-bit lane each. The 64-byte line sits in
// four 16-byte registers, so one TBL (vqtbl4q_u8) gathers, for every lane,
// the 4 bytes of the 32-bit word its probe lands in (byte indices
// 4 * word + 0..3); the probe's bit in that word is then tested with a
// per-lane shift. Lanes past the k-th probe want no bit.
#include "filter/cache_local/kernels.h"

#ifdef SSTFILTER_ARM64_NEON

#include <arm_neon.h>

#include "filter/cache_local/probes.h"

namespace sstfilter {
namespace {

namespace cl = cache_local;

// Whether all k probes of seed are set in the 64-byte line (the scalar
// LineMayMatch's answer). kEarlyExit: return after the first round with a
// clear probe (a single key, whose line is already waited for: an absent
// key is usually out after one round). REQUIRES: 1 <= k <= cl::kMaxProbes.
template <bool kEarlyExit>
inline bool LineMayMatchNeon(const char* line, uint32_t seed, int k) {
  const uint8x16x4_t bytes = vld1q_u8_x4(reinterpret_cast<const uint8_t*>(line));
  const uint32x4_t seeds = vdupq_n_u32(seed);
  // In each lane, as little-endian bytes: 0, 1, 2, 3.
  const uint32x4_t word_bytes = vdupq_n_u32(0x03020100u);
  const uint32x4_t lane = {0, 1, 2, 3};
  uint32x4_t missing = vdupq_n_u32(0);
  for (int first = 0; first < k; first += 4) {
    const uint32x4_t mult = vld1q_u32(cl::kProbeMultipliers + first);
    const uint32x4_t bit = vshrq_n_u32(vmulq_u32(seeds, mult), 23);  // 0..511 in the line.
    const uint32x4_t index = vmlaq_n_u32(word_bytes, vshrq_n_u32(bit, 5), 0x04040404u);
    const uint32x4_t word =
        vreinterpretq_u32_u8(vqtbl4q_u8(bytes, vreinterpretq_u8_u32(index)));
    const int32x4_t shift = vreinterpretq_s32_u32(vandq_u32(bit, vdupq_n_u32(31)));
    const uint32x4_t in_k = vcltq_u32(vaddq_u32(lane, vdupq_n_u32(first)),
                                      vdupq_n_u32(static_cast<uint32_t>(k)));
    const uint32x4_t want = vandq_u32(vshlq_u32(vdupq_n_u32(1), shift), in_k);
    missing = vorrq_u32(missing, vbicq_u32(want, word));  // want & ~word.
    if (kEarlyExit && vmaxvq_u32(missing) != 0) return false;
  }
  return vmaxvq_u32(missing) == 0;
}

// Batches without branches between rounds; single keys with an early exit.
SSTFILTER_CACHE_LOCAL_KERNELS(, Neon, cl::LineAdd, LineMayMatchNeon<false>,
                              LineMayMatchNeon<true>);

}  // namespace

const CacheLocalKernels* cache_local_internal::NeonKernels() { return &kNeonKernels; }

}  // namespace sstfilter

#else  // Not aarch64: no NEON kernels.

namespace sstfilter {
const CacheLocalKernels* cache_local_internal::NeonKernels() { return nullptr; }
}  // namespace sstfilter

#endif
