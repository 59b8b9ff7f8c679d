// Probe math of the banded encoding (a bumped Ribbon filter with 64-slot
// bands): pure, header-only, no allocation and no format parsing. Where
// the bytes it reads are: banded/format.h.
//
// A layer is `blocks` blocks of 64 slots; each slot holds one solution bit
// per fingerprint column. A key's equation in layer i comes from its 64-bit
// hash h (key_hash64.h), remixed per layer (i > 0) so that keys crowded
// together in one layer spread out in the next:
//   - start s = fastrange(h_i, blocks * 64 - 63): the band is slots s..s+63;
//   - coefficients c = (h_i * kCoefficientMultiplier) | 1: bit k of c
//     selects slot s + k (bit 0 always, so each equation has a pivot);
//   - fingerprint f = the low bits of Mix64(h_i), one per column.
// The key is in the layer's set if, for each column j its start block has,
// the parity of the selected slots' bits equals bit j of f. An absent key's
// band is a random equation: it matches with probability 2^-columns.
//
// Fractional fingerprints: the first `narrow_blocks` blocks of a layer have
// one column fewer than the rest. A key's start block decides its column
// count; its band's second block (the next one, never narrower) is read in
// those columns only. Because columns are independent equations on the
// same coefficients, a solution of all blocks at full width stays a
// solution when a block's last column is dropped.
//
// A block's last byte is its bump threshold code (format.h). A key whose
// start falls in block b at offset o (s = 64 b + o) with o >= Threshold(code
// of b) was bumped: it is in a later layer (or the fallback), not this one.
// A band reads block b and, when o > 0, block b + 1: at most 2 (8 c + 1)
// adjacent bytes.
#ifndef SSTFILTER_FILTER_BANDED_PROBES_H_
#define SSTFILTER_FILTER_BANDED_PROBES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "filter/banded/format.h"

namespace sstfilter::banded {

inline constexpr uint64_t kCoefficientMultiplier = 0xc28f82822b650bedULL;  // Odd.
inline constexpr uint64_t kLayerStep = 0x9e3779b97f4a7c15ULL;  // 2^64 / golden ratio.

// Threshold codes: the offsets from which a block's keys are bumped. Code 0
// bumps none; a coarser code bumps more keys than needed (they go to the
// next layer), never fewer. Codes past the table read as threshold 0.
inline constexpr uint32_t kThresholds[] = {64, 56, 48, 40, 32, 16, 0};
inline constexpr uint32_t kNumThresholdCodes = sizeof(kThresholds) / sizeof(kThresholds[0]);

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
  uint32_t fingerprint = 0;   // Bit j: column j's right-hand side (kMaxColumns bits).
};

// REQUIRES: blocks >= 1.
inline Band BandOf(uint64_t layer_hash, uint64_t blocks) {
  Band b;
  b.start = FastRange64(layer_hash, blocks * kSlotsPerBlock - (kSlotsPerBlock - 1));
  b.coefficients = (layer_hash * kCoefficientMultiplier) | 1;
  b.fingerprint = static_cast<uint32_t>(Mix64(layer_hash)) & ((1u << kMaxColumns) - 1);
  return b;
}

inline uint64_t LoadWord(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  return v;  // Little-endian hosts only (x86-64, as the other encodings).
}

// What one layer says of a key: bumped (ask the next layer), or its answer.
enum class LayerAnswer : uint8_t { kBumped, kMatch, kNoMatch };

// Where a band's equation lies in a layer's bytes, located without reading
// them (so that a batch can prefetch every key's lines before any load).
// The coefficients are split between the two blocks: bit k of the band
// (slot start + k) is bit offset + k of block b or bit k - (64 - offset) of
// block b + 1, so column j's parity is that of
// (first_j & in_first) ^ (second_j & in_second).
struct LocatedBand {
  const uint8_t* first = nullptr;   // Block b.
  const uint8_t* second = nullptr;  // Block b + 1; block b when offset = 0.
  uint64_t in_first = 0, in_second = 0;
  uint32_t columns = 0;      // Of block b: the key's column count.
  uint32_t offset = 0;       // Of the start in block b.
  uint32_t fingerprint = 0;  // Its low `columns` bits.
};

// REQUIRES: band = BandOf(LayerHash(h, i), layer.blocks) for layer i.
inline LocatedBand LocateBand(const Layer& layer, const Band& band) {
  const uint64_t b = band.start / kSlotsPerBlock;
  LocatedBand l;
  l.offset = static_cast<uint32_t>(band.start % kSlotsPerBlock);
  l.columns = layer.ColumnsOf(b);
  l.first = layer.BlockAt(b);
  // Block b + 1 starts where block b ends and has at least `columns` words;
  // it exists when offset > 0 (starts stop 63 slots before the end).
  l.second = l.offset == 0 ? l.first : l.first + BlockBytes(l.columns);
  l.in_first = band.coefficients << l.offset;
  l.in_second = l.offset == 0 ? 0 : band.coefficients >> (kSlotsPerBlock - l.offset);
  l.fingerprint = band.fingerprint & ((1u << l.columns) - 1);
  return l;
}

// Whether the key was bumped from this layer: its offset is at or past its
// block's threshold (the code byte after the block's words).
inline bool IsBumped(const LocatedBand& l) {
  const uint8_t code = l.first[8 * l.columns];
  return l.offset >= (code < kNumThresholdCodes ? kThresholds[code] : 0);
}

// Prefetches the lines a located band reads: its two blocks span up to 3.
inline void PrefetchBand(const LocatedBand& l) {
  __builtin_prefetch(l.first);
  __builtin_prefetch(l.first + 8 * l.columns);
  __builtin_prefetch(l.second + 8 * l.columns);
}

// The layer's answer, one column at a time (the scalar probe;
// banded/kernels.h has the others).
inline LayerAnswer ProbeLocated(const LocatedBand& l) {
  if (IsBumped(l)) return LayerAnswer::kBumped;
  uint32_t result = 0;
  for (uint32_t j = 0; j < l.columns; ++j) {
    const uint64_t x = (LoadWord(l.first + 8 * j) & l.in_first) ^
                       (LoadWord(l.second + 8 * j) & l.in_second);
    result |= static_cast<uint32_t>(__builtin_parityll(x)) << j;
  }
  return result == l.fingerprint ? LayerAnswer::kMatch : LayerAnswer::kNoMatch;
}

inline LayerAnswer ProbeLayer(const Layer& layer, const Band& band) {
  return ProbeLocated(LocateBand(layer, band));
}

// Whether a key of hash h may be in the set `layers` hold (layers[i] is
// layer first_layer + i): the first layer that did not bump it decides;
// bumped from every layer, it may be.
inline bool LayersMayMatch(const Layer* layers, uint32_t num_layers, uint64_t h,
                           uint32_t first_layer = 0) {
  for (uint32_t i = 0; i < num_layers; ++i) {
    const Band band = BandOf(LayerHash(h, first_layer + i), layers[i].blocks);
    const LayerAnswer a = ProbeLayer(layers[i], band);
    if (a != LayerAnswer::kBumped) return a == LayerAnswer::kMatch;
  }
  return true;
}

}  // namespace sstfilter::banded

#endif  // SSTFILTER_FILTER_BANDED_PROBES_H_
