// Probe math of the compact (4-wise binary fuse) encoding: pure,
// header-only, no allocation and no format parsing (compact/filter.h).
//
// A key's 64-bit XXH3 hash h (key_hash64.h) gives
//   - its fingerprint: the low bits of h;
//   - its cells, from m = hi ^ lo, the halves of the 128-bit product
//     h * K_seed folded (as wyhash mixes), K_seed = K + 2 * seed * golden
//     ratio (odd; a multiplier per seed, not an offset to h, which would
//     only shift every key's cells alike; hi alone is about h scaled, not
//     mixed): the window start p0 = (m >> 32) * window_starts >> 32
//     (fastrange), then cell j = (p0 + j L) ^ o_j for j = 1..3, with
//     in-segment offsets o_1 = m & (L-1), o_2 = (lo >> 46) & (L-1),
//     o_3 = (h >> 46) & (L-1). The XOR keeps cell j in segment j after p0's
//     (L is a power of two, at most 2^18).
// Cell i starts at bit i * r - min(i, narrow_cells) of the array (cells below
// narrow_cells hold r - 1 bits) and is read with one unaligned 64-bit load
// at its byte; the filter's trailer follows the array, so such loads stay
// inside the filter (see compact/filter.h). A key compares r - 1 bits when
// p0 < narrow_cells, else r (then all its cells have r bits).
#ifndef SSTFILTER_FILTER_COMPACT_PROBES_H_
#define SSTFILTER_FILTER_COMPACT_PROBES_H_

#include <cstdint>
#include <cstring>

#include "filter/compact/math.h"

namespace sstfilter::compact {

inline constexpr uint64_t kCellMultiplier = 0xd6e8feb86659fd93ULL;  // Odd.
inline constexpr uint64_t kSeedStep = 0x9e3779b97f4a7c15ULL;  // 2^64 / golden ratio.

inline uint64_t SeedMultiplier(uint32_t seed) { return kCellMultiplier + uint64_t{seed} * 2 * kSeedStep; }

inline uint64_t LowMask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// What probing needs of a shape, precomputed.
struct FuseParams {
  uint32_t window_starts = 0;  // segment_count * L; < 2^32.
  uint32_t segment_length = 0;
  uint32_t segment_mask = 0;
  uint32_t narrow_cells = 0;
  uint32_t bits = 1;  // r.
  uint64_t wide_mask = 1;  // The r bits a key compares...
  uint64_t narrow_mask = 0;  // ...or r - 1, when its window starts narrow.

  static FuseParams Of(const FuseShape& s) {
    FuseParams p;
    p.window_starts = static_cast<uint32_t>(s.window_starts());
    p.segment_length = s.segment_length();
    p.segment_mask = p.segment_length - 1;
    p.narrow_cells = s.narrow_cells;
    p.bits = static_cast<uint32_t>(s.fingerprint_bits);
    p.wide_mask = LowMask(s.fingerprint_bits);
    p.narrow_mask = LowMask(s.fingerprint_bits - 1);
    return p;
  }
};

struct Cells {
  uint32_t c[kCompactArity];
};

// `multiplier` is SeedMultiplier(seed), computed once per filter.
inline Cells CellsOf(uint64_t h, uint64_t multiplier, const FuseParams& p) {
  const unsigned __int128 m = static_cast<unsigned __int128>(h) * multiplier;
  const auto lo = static_cast<uint64_t>(m);
  const uint64_t folded = static_cast<uint64_t>(m >> 64) ^ lo;
  const uint32_t p0 = static_cast<uint32_t>(((folded >> 32) * p.window_starts) >> 32);
  Cells cells;
  cells.c[0] = p0;
  cells.c[1] = (p0 + p.segment_length) ^ (static_cast<uint32_t>(folded) & p.segment_mask);
  cells.c[2] = (p0 + 2 * p.segment_length) ^ (static_cast<uint32_t>(lo >> 46) & p.segment_mask);
  cells.c[3] = (p0 + 3 * p.segment_length) ^ (static_cast<uint32_t>(h >> 46) & p.segment_mask);
  return cells;
}

// Bits a key compares (r - 1 or r), by its window start.
inline int KeyBits(uint32_t p0, const FuseParams& p) {
  return static_cast<int>(p.bits) - (p0 < p.narrow_cells ? 1 : 0);
}
// Bits cell i holds.
inline int CellBits(uint32_t i, const FuseParams& p) { return KeyBits(i, p); }
// LowMask(KeyBits(p0, p)).
inline uint64_t KeyMask(uint32_t p0, const FuseParams& p) {
  return p0 < p.narrow_cells ? p.narrow_mask : p.wide_mask;
}

inline uint64_t CellBitOffset(uint32_t i, const FuseParams& p) {
  return uint64_t{i} * p.bits - (i < p.narrow_cells ? i : p.narrow_cells);
}

// Where cell i's bits start: a byte and a shift.
struct CellAt {
  uint64_t byte;  // Arrays may pass 4 GiB (2^32 cells of up to 32 bits).
  uint32_t shift;
};
// The cell starting at bit `bit` of the array (the SIMD kernels compute
// bit offsets, compact/located_group.h).
inline CellAt CellAtBit(uint64_t bit) { return {bit >> 3, static_cast<uint32_t>(bit & 7)}; }
inline CellAt LocateCell(uint32_t i, const FuseParams& p) {
  return CellAtBit(CellBitOffset(i, p));
}

// Cell bits at `at` and whatever follows them (mask before use).
inline uint64_t LoadCellAt(const char* array, CellAt at) {
  uint64_t word;
  std::memcpy(&word, array + at.byte, sizeof(word));
  return word >> at.shift;  // Little-endian hosts (x86-64, aarch64).
}

// A key's 4 cells located, and the bits it compares.
struct Probe {
  CellAt at[kCompactArity];
  uint64_t mask;
};
inline Probe ProbeOf(const Cells& cells, const FuseParams& p) {
  Probe probe;
  for (int j = 0; j < kCompactArity; ++j) probe.at[j] = LocateCell(cells.c[j], p);
  probe.mask = KeyMask(cells.c[0], p);
  return probe;
}
inline void PrefetchProbe(const char* array, const Probe& probe) {
  for (CellAt at : probe.at) __builtin_prefetch(array + at.byte);
}

// Whether a key with hash h may be in the filter.
inline bool ProbeMayMatch(const char* array, uint64_t h, const Probe& probe) {
  const uint64_t x = LoadCellAt(array, probe.at[0]) ^ LoadCellAt(array, probe.at[1]) ^
                     LoadCellAt(array, probe.at[2]) ^ LoadCellAt(array, probe.at[3]);
  return ((x ^ h) & probe.mask) == 0;
}
inline bool FuseMayMatch(const char* array, uint64_t h, const Cells& cells, const FuseParams& p) {
  return ProbeMayMatch(array, h, ProbeOf(cells, p));
}

}  // namespace sstfilter::compact

#endif  // SSTFILTER_FILTER_COMPACT_PROBES_H_
