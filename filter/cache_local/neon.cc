// NEON (64-bit ARM Advanced SIMD) query kernels of the cache-local encoding
// (see cache_local/kernels.h). Adding keys stays scalar: the bytes are the
// scalar builder's by construction, and building is not where a filter's
// time goes on a read path.
//
// Query: 4 probes per round, one 32-bit lane each. The 64-byte line sits in
// four 16-byte registers, so one TBL (vqtbl4q_u8) gathers, into each lane's
// low byte, the line's byte its probe lands in (bit b is bit b % 8 of byte
// b / 8); the probe's bit in that byte is tested with a per-lane shift. The
// lane's other bytes gather byte 0 and are never tested. Rounds need no
// lane mask: testing a probe twice changes no answer, so the last round
// starts at probe k - 4 (overlapping the one before), and k < 4 runs one
// round whose extra lanes repeat probe 0.
#include "filter/cache_local/kernels.h"

#ifdef SSTFILTER_ARM64_NEON

#include <arm_neon.h>

#include <array>
#include <cstdint>

#include "filter/cache_local/probes.h"

namespace sstfilter {
namespace {

namespace cl = cache_local;

// The multipliers of a key's rounds, 4 per round, copied here so that the
// kernel reaches them by a PC-relative address: rows 1..3 hold the one
// round of k = 1..3 (probes 0..k-1, then probe 0 again); row 4 on holds
// probes 0..31 in order (every k >= 4).
constexpr std::array<uint32_t, 16 + cl::kMaxProbes> RoundMultipliers() {
  std::array<uint32_t, 16 + cl::kMaxProbes> m{};
  for (int k = 1; k < 4; ++k) {
    for (int lane = 0; lane < 4; ++lane) {
      m[4 * k + lane] = cl::kProbeMultipliers[lane < k ? lane : 0];
    }
  }
  for (int i = 0; i < cl::kMaxProbes; ++i) m[16 + i] = cl::kProbeMultipliers[i];
  return m;
}
alignas(16) constexpr std::array<uint32_t, 16 + cl::kMaxProbes> kRoundMultipliers =
    RoundMultipliers();

// Per lane, whether the probe of seed's product with that lane's
// multiplier is clear in the line: nonzero if so.
inline uint32x4_t ClearProbes(const uint8x16x4_t& line, uint32x4_t seeds,
                              const uint32_t* multipliers) {
  const uint32x4_t product = vmulq_u32(seeds, vld1q_u32(multipliers));
  const uint8x16_t byte_index = vreinterpretq_u8_u32(vshrq_n_u32(product, 26));
  const uint32x4_t byte = vreinterpretq_u32_u8(vqtbl4q_u8(line, byte_index));
  const int32x4_t shift =
      vreinterpretq_s32_u32(vandq_u32(vshrq_n_u32(product, 23), vdupq_n_u32(7)));
  return vbicq_u32(vshlq_u32(vdupq_n_u32(1), shift), byte);
}

// Whether all k probes of seed are set in the 64-byte line (the scalar
// LineMayMatch's answer). kEarlyExit: return after the first round with a
// clear probe (a single key, whose line is already waited for: an absent
// key is usually out after the first round, which needs no loop set up).
// REQUIRES: 1 <= k <= cl::kMaxProbes.
template <bool kEarlyExit>
inline bool LineMayMatchNeon(const char* line, uint32_t seed, int k) {
  const uint8x16x4_t bytes = vld1q_u8_x4(reinterpret_cast<const uint8_t*>(line));
  const uint32x4_t seeds = vdupq_n_u32(seed);
  const uint32_t* multipliers = kRoundMultipliers.data() + (k < 4 ? 4 * k : 16);
  uint32x4_t missing = ClearProbes(bytes, seeds, multipliers);
  if (kEarlyExit && vmaxvq_u32(missing) != 0) return false;
  for (int first = 4; first < k; first += 4) {
    const int at = first < k - 4 ? first : k - 4;  // The last round overlaps.
    const uint32x4_t clear = ClearProbes(bytes, seeds, multipliers + at);
    if (kEarlyExit && vmaxvq_u32(clear) != 0) return false;
    missing = vorrq_u32(missing, clear);
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
