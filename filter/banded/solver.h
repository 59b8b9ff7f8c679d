// Building the banded encoding's layers (probes.h): sorting keys by block,
// banding each block's keys (on-the-fly Gaussian elimination over GF(2),
// Dillinger and Walzer's Ribbon) with bumping (a block that cannot take all
// its keys bumps those from a threshold offset up to the next layer, as
// BuRR does), then back-substitution into the interleaved layout.
//
// A layer never fails: whatever it cannot hold it bumps. Layers follow
// until none bumps or kMaxLayers is reached; keys still bumped then are
// the caller's to place (the encoding falls back to a Bloom filter).
#ifndef SSTFILTER_FILTER_BANDED_SOLVER_H_
#define SSTFILTER_FILTER_BANDED_SOLVER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"

namespace sstfilter::banded {

inline constexpr uint32_t kMaxLayers = 4;

// Slots over keys of layer 0 (1%: fewer absent keys reach a second layer,
// 0.8% against 1.4% at none, for 0.03 bits/key) and of later layers, which
// hold the few keys bumped from crowded blocks.
inline constexpr double kFirstLayerOverhead = 0.01;
inline constexpr double kLaterLayerOverhead = 0.05;

// Blocks of layer `layer` for `keys` keys: at least 2 (one full band).
uint64_t LayerBlocks(size_t keys, uint32_t layer);

// Solves layer `layer` over `hashes` (keys' 64-bit hashes; remixed here per
// layer, probes.h) into blocks * BlockBytes(columns) bytes at `out`, and
// appends the hashes it bumped to *bumped. Deterministic: the same hashes
// in any order give the same bytes. REQUIRES: blocks >= 2,
// kMinColumns <= columns <= kMaxColumns.
void SolveLayer(absl::Span<const uint64_t> hashes, uint32_t layer, uint64_t blocks,
                uint32_t columns, uint8_t* out, std::vector<uint64_t>* bumped);

struct SolvedLayers {
  std::vector<uint64_t> blocks;            // Of each layer.
  std::vector<std::vector<uint8_t>> bytes;  // Of each layer.
  std::vector<uint64_t> unplaced;          // Bumped from the last layer.
};

// Layers until every key is placed or kMaxLayers.
SolvedLayers SolveLayers(absl::Span<const uint64_t> hashes, uint32_t columns);

// Whether a key of this hash may be in the set the layers hold: the first
// layer that did not bump it decides; bumped from every layer, it may be
// (the caller's fallback decides).
bool LayersMayMatch(const SolvedLayers& layers, uint32_t columns, uint64_t hash);

}  // namespace sstfilter::banded

#endif  // SSTFILTER_FILTER_BANDED_SOLVER_H_
