// Probe math of the banded encoding (a bumped Ribbon filter with 64-slot
// bands): pure, header-only, no allocation and no format parsing.
//
// A layer is `blocks` blocks of 64 slots; each slot holds r solution bits
// (one per fingerprint column). A key's equation in layer i comes from its
// 64-bit hash h (key_hash64.h), remixed per layer (i > 0) so that keys
// crowded together in one layer spread out in the next:
//   - start s = fastrange(h_i, blocks * 64 - 63): the band is slots s..s+63;
//   - coefficients c = (h_i * kCoefficientMultiplier) | 1: bit k of c
//     selects slot s + k (bit 0 always, so each equation has a pivot);
//   - fingerprint f = the top r bits of Mix(h_i).
// The key is in the layer's set if, for each column j, the parity of the
// selected slots' bits equals bit j of f. An absent key's band is a random
// equation: it matches with probability 2^-r.
//
// Bytes of a block: r little-endian 64-bit words (word j: column j of the
// block's 64 slots, bit k = slot k), then one byte: the block's bump
// threshold code. A key whose start falls in block b at offset o (s = 64 b
// + o) with o >= Threshold(code of b) was bumped: it is in a later layer
// (or the fallback), not this one. The band reads block b and, when o > 0,
// block b + 1: at most 2 (8 r + 1) bytes, adjacent.
#ifndef SSTFILTER_FILTER_BANDED_PROBES_H_
#define SSTFILTER_FILTER_BANDED_PROBES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sstfilter::banded {

inline constexpr uint32_t kSlotsPerBlock = 64;
inline constexpr uint32_t kMinColumns = 1;
inline constexpr uint32_t kMaxColumns = 16;
inline constexpr uint64_t kCoefficientMultiplier = 0xc28f82822b650bedULL;  // Odd.
inline constexpr uint64_t kLayerStep = 0x9e3779b97f4a7c15ULL;  // 2^64 / golden ratio.

// Threshold codes: the offsets from which a block's keys are bumped. Code 0
// bumps none; a coarser code bumps more keys than needed (they go to the
// next layer), never fewer.
inline constexpr uint32_t kThresholds[] = {64, 56, 48, 40, 32, 16, 0};
inline constexpr uint32_t kNumThresholdCodes = sizeof(kThresholds) / sizeof(kThresholds[0]);

inline constexpr size_t BlockBytes(uint32_t columns) { return 8 * size_t{columns} + 1; }

// splitmix64's finaliser: a bijection with well-mixed output.
inline uint64_t Mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The hash a layer uses: layer 0 the key's own, later ones remixed.
inline uint64_t LayerHash(uint64_t hash, uint32_t layer) {
  return layer == 0 ? hash : Mix64(hash + uint64_t{layer} * kLayerStep);
}

inline uint64_t FastRange64(uint64_t hash, uint64_t n) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(hash) * n) >> 64);
}

struct Band {
  uint64_t start = 0;         // First slot.
  uint64_t coefficients = 1;  // Bit k: slot start + k.
  uint32_t fingerprint = 0;   // r bits.
};

// REQUIRES: blocks >= 1, kMinColumns <= columns <= kMaxColumns.
inline Band BandOf(uint64_t layer_hash, uint64_t blocks, uint32_t columns) {
  Band b;
  b.start = FastRange64(layer_hash, blocks * kSlotsPerBlock - (kSlotsPerBlock - 1));
  b.coefficients = (layer_hash * kCoefficientMultiplier) | 1;
  b.fingerprint = static_cast<uint32_t>(Mix64(layer_hash) >> (64 - columns));
  return b;
}

inline uint64_t LoadWord(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;  // Little-endian hosts only (x86-64, as the other encodings).
}

// Whether the band's key was bumped out of this layer. `layer` points at the
// layer's first block.
inline bool Bumped(const uint8_t* layer, uint32_t columns, uint64_t start) {
  const uint8_t* block = layer + (start / kSlotsPerBlock) * BlockBytes(columns);
  const uint8_t code = block[8 * columns];
  const uint32_t threshold = code < kNumThresholdCodes ? kThresholds[code] : 0;
  return start % kSlotsPerBlock >= threshold;
}

// Whether the layer's solution satisfies the band's equation in every
// column. REQUIRES: the band's blocks (start / 64 and, if start % 64 > 0,
// the next) lie inside the layer.
inline bool BandMatches(const uint8_t* layer, uint32_t columns, const Band& band) {
  const size_t bytes = BlockBytes(columns);
  const uint8_t* first = layer + (band.start / kSlotsPerBlock) * bytes;
  const uint32_t offset = band.start % kSlotsPerBlock;
  uint32_t result = 0;
  for (uint32_t j = 0; j < columns; ++j) {
    uint64_t window = LoadWord(first + 8 * j) >> offset;
    if (offset > 0) window |= LoadWord(first + bytes + 8 * j) << (kSlotsPerBlock - offset);
    result |= static_cast<uint32_t>(__builtin_parityll(window & band.coefficients)) << j;
  }
  return result == band.fingerprint;
}

}  // namespace sstfilter::banded

#endif  // SSTFILTER_FILTER_BANDED_PROBES_H_
