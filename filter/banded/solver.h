// Building the banded encoding's layers (probes.h): sorting keys by block,
// banding each block's keys (on-the-fly Gaussian elimination over GF(2),
// Dillinger and Walzer's Ribbon) with bumping (a block that cannot take all
// its keys bumps those from a threshold offset up to the next layer, as
// BuRR does), then back-substitution.
//
// A layer never fails: whatever it cannot hold it bumps. The caller decides
// the layers' sizes and what to do with keys bumped from the last one (the
// encoding falls back to a Bloom filter).
//
// Sections. A layer is solved kSectionBlocks blocks at a time: the keys of
// a section's last block are all bumped (their bands reach the next
// section), so no placed band crosses a section's end and each section's
// equations are solved alone. The temporary memory is then the keys'
// hashes (grouped by section in place) and one section's rows, whatever n;
// a section's rows stay in the core's L2 cache. It costs one block's keys
// in 512 moved to the next layer (0.2% of them); the format does not know
// of sections (a bumped block is an ordinary threshold code).
#ifndef SSTFILTER_FILTER_BANDED_SOLVER_H_
#define SSTFILTER_FILTER_BANDED_SOLVER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "filter/banded/format.h"
#include "filter/hash_blocks.h"

namespace sstfilter::banded {

// One layer's solution at full width: `columns` words per block, and each
// block's threshold code. Any column count up to `columns`, and any number
// of narrow blocks, can be written from it (WriteLayer).
struct SolvedLayer {
  uint64_t blocks = 0;
  uint32_t columns = 0;
  std::vector<uint64_t> words;  // Block b, column j: words[b * columns + j].
  std::vector<uint8_t> codes;   // Of each block.

  size_t AllocatedBytes() const {
    return words.capacity() * sizeof(uint64_t) + codes.capacity();
  }
};

inline constexpr uint64_t kSectionBlocks = 512;

// Solves layer `layer` over *hashes (keys' 64-bit hashes; remixed here per
// layer, probes.h; reordered in place) in `blocks` blocks of `columns`
// columns, and appends the hashes it bumped to *bumped. Deterministic: the
// same hashes in any order give the same solution. *temp_bytes is raised to
// the most bytes held while solving (besides the hashes and the result).
// REQUIRES: blocks >= 1, 1 <= columns <= kMaxColumns.
SolvedLayer SolveLayer(HashBlocks* hashes, uint32_t layer, uint64_t blocks,
                       uint32_t columns, std::vector<uint64_t>* bumped, size_t* temp_bytes);

// Writes the solution as format.h lays a layer out, at `columns` columns
// (<= solved.columns: the first ones) with the first `narrow_blocks` blocks
// one narrower; LayerBytes(...) bytes. REQUIRES: 1 <= columns <=
// solved.columns, narrow_blocks <= solved.blocks.
void WriteLayer(const SolvedLayer& solved, uint32_t columns, uint64_t narrow_blocks,
                uint8_t* out);

}  // namespace sstfilter::banded

#endif  // SSTFILTER_FILTER_BANDED_SOLVER_H_
