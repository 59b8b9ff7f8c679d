// Arithmetic of the banded encoding: the fingerprint columns a bits/key
// asks for, the layers planned for n keys, their bytes and FP rate.
//
// Accuracy. bits_per_key keeps its meaning, as in the compact encoding
// (compact/math.h): the target is the cache-local Bloom encoding's FP rate
// at bits_per_key (0.9576% at 10). An absent key that reaches a layer with
// c columns matches with probability 2^-c; r = ceil(-log2 target) columns,
// and the first fraction q = target 2^r - 1 of layer 0's blocks narrow
// (r - 1 columns, probes.h), give FP q 2^-(r-1) + (1 - q) 2^-r = target.
// At 10 bits/key: r = 7, q = 0.2257.
//
// Layers. Layer 0 has 1% more slots than keys (fewer keys bumped than at
// none, for a small share of a bit per key; docs/encodings.md has the
// figures). Each later layer is sized for the keys the one before bumped
// (10% spare slots; none bumped: no more layers), so a filter's size
// follows its keys; FilterSize(n) plans layer 1 for the share layer 0 is
// expected to bump (the keys of each solver section's last block
// included, banded/solver.h), and the size written differs from it by a
// few blocks (more at millions of keys). Bumped past kMaxLayers, the
// filter falls back to a Bloom filter.
#ifndef SSTFILTER_FILTER_BANDED_MATH_H_
#define SSTFILTER_FILTER_BANDED_MATH_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "filter/banded/format.h"

namespace sstfilter {

inline constexpr uint32_t kBandedMaxLayers = banded::kMaxLayers;
inline constexpr uint32_t kBandedPlannedLayers = 2;
// Block counts are 32-bit in the format, and the solver counts keys in 32
// bits; larger filters are Bloom filters.
inline constexpr size_t kBandedMaxKeys = (size_t{1} << 32) - 1;

// The FP rate bits_per_key aims at. REQUIRES: bits_per_key > 0.
double BandedTargetFpRate(double bits_per_key);

// The columns of a filter, and how many of layer 0's blocks have one fewer.
struct BandedWidths {
  uint32_t columns = 1;  // 1..kMaxColumns.
  uint64_t narrow_blocks = 0;
};

// Layers and widths of a banded filter.
struct BandedShape {
  uint32_t num_layers = 0;  // 1..kBandedMaxLayers.
  std::array<uint64_t, kBandedMaxLayers> blocks{};  // Of each layer, >= 1.
  BandedWidths widths;

  // Bytes of the layers (not the trailer).
  uint64_t LayerBytes() const;
  // The FP rate by the model: narrow blocks' share of layer 0's starts at
  // 2^-(columns - 1), the rest at 2^-columns. Keys bumped to later layers
  // meet 2^-columns there, not the narrow blocks' rate: the model errs high
  // by at most the bumped share.
  double FpRate() const;
};

// Blocks of layer 0 for n keys (1% spare slots), and the layer 1 a plan
// counts on (the keys layer 0 is expected to bump; a build sizes it for
// the keys layer 0 did bump, BandedExtraLayerBlocks).
uint64_t BandedFirstLayerBlocks(size_t num_keys);
uint64_t BandedSecondLayerBlocks(size_t num_keys);
// Blocks of a layer after the first for `bumped` keys bumped from the one
// before (10% spare slots).
uint64_t BandedExtraLayerBlocks(size_t bumped);

// The widths bits_per_key asks for on a layer 0 of `blocks` blocks.
BandedWidths BandedWidthsFor(double bits_per_key, uint64_t blocks);

// The planned shape for n keys (layer 0 and the expected layer 1).
BandedShape BandedPlan(size_t num_keys, double bits_per_key);

// The widths that fill at most `layer_bytes` bytes of layers on `shape`'s
// blocks with the most columns (at most max_columns), or columns = 0 when
// even one column does not fit. A lone layer all narrow at c columns is
// given as c - 1 columns, none narrow (the same bytes and answers).
BandedWidths FitBandedWidths(const BandedShape& shape, uint32_t max_columns,
                             uint64_t layer_bytes);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BANDED_MATH_H_
