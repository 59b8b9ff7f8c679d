// NEON (64-bit ARM Advanced SIMD) probe kernel of the banded encoding (see
// banded/kernels.h): a band's columns (r <= 8) two to a register. NEON has
// no masked load, so each column count has its own unrolled probe (chosen
// by one switch): exactly the key's columns are loaded from both blocks,
// ANDed with the coefficients' two halves and XORed. The parities come from
// per-byte counts (CNT) summed pairwise (ADDP) down to one byte per column,
// in column order; their low bits, shifted to their column's place and
// summed (ADDV), are the fingerprint the key must have. The scalar probe
// computes each column's parity alone (aarch64 has no scalar popcount: a
// move to a vector register and back, per column). Wider filters (r > 8)
// take the scalar loop.
#include "filter/banded/kernels.h"

#include "filter/banded/query.h"

#ifdef SSTFILTER_ARM64_NEON

#include <arm_neon.h>

#include <cstdint>

namespace sstfilter {
namespace {

namespace bd = banded;

// Columns j and j + 1 of the band (j + 1 < columns): each lane the AND of
// its two blocks' words with the coefficients, XORed.
inline uint64x2_t TwoColumns(const bd::LocatedBand& l, uint32_t j, uint64x2_t in_first,
                             uint64x2_t in_second) {
  const auto* first = reinterpret_cast<const uint64_t*>(l.first) + j;
  const auto* second = reinterpret_cast<const uint64_t*>(l.second) + j;
  return veorq_u64(vandq_u64(vld1q_u64(first), in_first),
                   vandq_u64(vld1q_u64(second), in_second));
}

// Column j alone (the band's last, of an odd count) in the low lane.
inline uint64x2_t LastColumn(const bd::LocatedBand& l, uint32_t j, uint64x2_t in_first,
                             uint64x2_t in_second) {
  const auto* first = reinterpret_cast<const uint64_t*>(l.first) + j;
  const auto* second = reinterpret_cast<const uint64_t*>(l.second) + j;
  const uint64x2_t first_word = vcombine_u64(vld1_u64(first), vdup_n_u64(0));
  const uint64x2_t second_word = vcombine_u64(vld1_u64(second), vdup_n_u64(0));
  return veorq_u64(vandq_u64(first_word, in_first), vandq_u64(second_word, in_second));
}

// The band's columns 2p and 2p + 1 (zero past kColumns).
template <uint32_t kColumns>
inline uint64x2_t Pair(const bd::LocatedBand& l, uint32_t p, uint64x2_t in_first,
                       uint64x2_t in_second) {
  if (2 * p + 1 < kColumns) return TwoColumns(l, 2 * p, in_first, in_second);
  if (2 * p < kColumns) return LastColumn(l, 2 * p, in_first, in_second);
  return vdupq_n_u64(0);
}

// Bit j of the result: the parity of column j, for a band of kColumns.
template <uint32_t kColumns>
inline uint32_t OddColumns(const bd::LocatedBand& l) {
  const uint64x2_t in_first = vdupq_n_u64(l.in_first);
  const uint64x2_t in_second = vdupq_n_u64(l.in_second);
  const auto counts = [&](uint32_t p) {  // 8 bytes per column: its bits set in each.
    return vcntq_u8(vreinterpretq_u8_u64(Pair<kColumns>(l, p, in_first, in_second)));
  };
  // 4 sums per column, columns 0..3; then 2 per column, columns 0..7 (or
  // 0..3 twice).
  uint8x16_t sums = vpaddq_u8(counts(0), counts(1));
  sums = vpaddq_u8(sums, kColumns > 4 ? vpaddq_u8(counts(2), counts(3)) : sums);
  const uint8x8_t per_column = vpadd_u8(vget_low_u8(sums), vget_high_u8(sums));
  // Columns 0..7 in bytes 0..7 (4 columns: 0..3 twice, the copy masked off).
  const int8x8_t place = {0, 1, 2, 3, 4, 5, 6, 7};
  const uint8x8_t bits = vshl_u8(vand_u8(per_column, vdup_n_u8(1)), place);
  return vaddv_u8(bits) & ((1u << kColumns) - 1);
}

template <uint32_t kColumns>
inline bd::LayerAnswer ProbeColumns(const bd::LocatedBand& l) {
  return OddColumns<kColumns>(l) == l.fingerprint ? bd::LayerAnswer::kMatch
                                                  : bd::LayerAnswer::kNoMatch;
}

inline bd::LayerAnswer Probe(const bd::LocatedBand& l) {
  if (bd::IsBumped(l)) return bd::LayerAnswer::kBumped;
  switch (l.columns) {
    case 1:
      return ProbeColumns<1>(l);
    case 2:
      return ProbeColumns<2>(l);
    case 3:
      return ProbeColumns<3>(l);
    case 4:
      return ProbeColumns<4>(l);
    case 5:
      return ProbeColumns<5>(l);
    case 6:
      return ProbeColumns<6>(l);
    case 7:
      return ProbeColumns<7>(l);
    case 8:
      return ProbeColumns<8>(l);
    default:
      return bd::ProbeLocated(l);
  }
}

bool MayMatchNeon(const bd::Layers& layers, uint64_t hash) {
  return bd::QueryHash(layers, hash, Probe);
}

void MayMatchHashesNeon(const bd::Layers& layers, const uint64_t* hashes, size_t n, bool* out) {
  bd::QueryHashes(layers, hashes, n, out, Probe);
}

}  // namespace

BandedKernels banded_internal::NeonKernels() {
  return {MayMatchNeon, MayMatchHashesNeon, "neon"};
}

}  // namespace sstfilter

#else  // Not aarch64: no NEON kernel.

namespace sstfilter {
BandedKernels banded_internal::NeonKernels() { return {}; }
}  // namespace sstfilter

#endif
