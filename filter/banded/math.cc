#include "filter/banded/math.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "filter/banded/format.h"
#include "filter/banded/solver.h"
#include "filter/cache_local/math.h"
#include "filter/cache_local/probes.h"

namespace sstfilter {

namespace {

// The share of its keys layer 0 bumps, for the plan: about 1.05% at
// n >= 9,000, less where layer 0's last block is partly spare.
constexpr double kLayerZeroBumpedShare = 0.0105;

uint64_t BlocksFor(double slots) {
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(slots / banded::kSlotsPerBlock)));
}

}  // namespace

double BandedTargetFpRate(double bits_per_key) {
  assert(bits_per_key > 0);
  return BlockedBloomFpRate(cache_local::kLineBits / bits_per_key,
                            CacheLocalNumProbes(bits_per_key));
}

uint64_t BandedShape::LayerBytes() const {
  uint64_t bytes = banded::LayerBytes(blocks[0], widths.columns, widths.narrow_blocks);
  for (uint32_t i = 1; i < num_layers; ++i) {
    bytes += banded::LayerBytes(blocks[i], widths.columns, 0);
  }
  return bytes;
}

double BandedShape::FpRate() const {
  // Starts range over blocks * 64 - 63 slots; those before narrow_blocks * 64
  // are narrow.
  const double starts = double(blocks[0]) * banded::kSlotsPerBlock - (banded::kSlotsPerBlock - 1);
  const double narrow =
      std::min(1.0, double(widths.narrow_blocks) * banded::kSlotsPerBlock / starts);
  return narrow * std::ldexp(1.0, -int(widths.columns - 1)) +
         (1 - narrow) * std::ldexp(1.0, -int(widths.columns));
}

uint64_t BandedFirstLayerBlocks(size_t num_keys) { return BlocksFor(double(num_keys) * 1.01); }

uint64_t BandedSecondLayerBlocks(size_t num_keys) {
  // The keys layer 0 is expected to bump, each section's last block's
  // included (banded/solver.h), at the later layers' spare slots.
  return BandedExtraLayerBlocks(
      static_cast<size_t>(std::llround(kLayerZeroBumpedShare * double(num_keys))));
}

uint64_t BandedExtraLayerBlocks(size_t bumped) { return BlocksFor(double(bumped) * 1.10); }

BandedWidths BandedWidthsFor(double bits_per_key, uint64_t blocks) {
  const double target = BandedTargetFpRate(bits_per_key);
  BandedWidths w;
  const int columns = std::clamp(static_cast<int>(std::ceil(-std::log2(target))), 1,
                                 static_cast<int>(banded::kMaxColumns));
  w.columns = static_cast<uint32_t>(columns);
  // q of layer 0's starts narrow; whole blocks, rounded down (FP <= target).
  const double q = std::clamp(std::ldexp(target, columns) - 1, 0.0, 1.0);
  const double starts = double(blocks) * banded::kSlotsPerBlock - (banded::kSlotsPerBlock - 1);
  w.narrow_blocks = std::min<uint64_t>(
      blocks, static_cast<uint64_t>(std::floor(q * starts / banded::kSlotsPerBlock)));
  return w;
}

BandedShape BandedPlan(size_t num_keys, double bits_per_key) {
  BandedShape s;
  s.num_layers = kBandedPlannedLayers;
  s.blocks[0] = BandedFirstLayerBlocks(num_keys);
  s.blocks[1] = BandedSecondLayerBlocks(num_keys);
  s.widths = BandedWidthsFor(bits_per_key, s.blocks[0]);
  return s;
}

BandedWidths FitBandedWidths(const BandedShape& shape, uint32_t max_columns,
                             uint64_t layer_bytes) {
  BandedShape s = shape;
  for (uint32_t c = std::min(max_columns, banded::kMaxColumns); c >= 1; --c) {
    s.widths = {c, 0};
    const uint64_t wide = s.LayerBytes();
    if (wide <= layer_bytes) return s.widths;
    // Each narrow block saves 8 bytes. Every block of a lone layer narrow
    // is the same filter as one column fewer and none narrow: written so.
    const uint64_t narrow = (wide - layer_bytes + 7) / 8;
    if (narrow == s.blocks[0] && s.num_layers == 1 && c > 1) return {c - 1, 0};
    if (narrow <= s.blocks[0]) return {c, narrow};
  }
  return {0, 0};
}

}  // namespace sstfilter
