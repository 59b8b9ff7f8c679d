// LevelDB's filter block (table/filter_block.cc in LevelDB; unchanged since
// 1.4): one filter per 2^base_lg bytes of data-block start offsets.
//
//   filter block = filter_0 .. filter_{m-1}
//                  offset_0 .. offset_{m-1}   fixed32 each: where filter i starts
//                  array_start                fixed32: where offset_0 sits
//                  base_lg                    1 byte; LevelDB writes 11 (2 KB)
//
// Filter i spans [offset_i, offset_{i+1}), the last one ending at
// array_start. The data block starting at file offset o is summarised by
// filter o >> base_lg, together with every other block starting in the same
// 2^base_lg-byte window; a window in which no block starts has an empty
// filter. Parsed with every bound checked: damage is a DataLoss status
// naming what is wrong (LevelDB's own reader instead reads a damaged block as
// "may match").
#ifndef SSTFILTER_INSPECT_LEVELDB_FILTER_BLOCK_H_
#define SSTFILTER_INSPECT_LEVELDB_FILTER_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace sstfilter {

// LevelDB's kFilterBaseLg.
inline constexpr int kLevelDbFilterBaseLg = 11;
// The largest base_lg accepted: a filter per 4 GiB of table, far beyond any
// writer's choice; also keeps `offset >> base_lg` defined.
inline constexpr int kMaxLevelDbFilterBaseLg = 32;

struct LevelDbFilterBlock {
  int base_lg = kLevelDbFilterBaseLg;
  std::string contents;  // The whole block, trailer excluded.
  // num_filters() + 1 entries, non-decreasing: filter i spans
  // [bounds[i], bounds[i + 1]) of contents; the last is array_start.
  std::vector<uint32_t> bounds;

  size_t num_filters() const { return bounds.size() - 1; }
  std::string_view filter(size_t i) const {
    return std::string_view(contents).substr(bounds[i], bounds[i + 1] - bounds[i]);
  }
  // The filter of the data block starting at file offset block_offset (may
  // be >= num_filters() for a block the filter block does not cover).
  uint64_t FilterIndexOf(uint64_t block_offset) const { return block_offset >> base_lg; }
  // Bytes of the filters themselves (the offset array and tail excluded).
  size_t FilterBytes() const { return bounds.back(); }
};

// Parses the contents of a filter block (trailer already removed).
// DataLoss when the block is shorter than its 5-byte tail, base_lg exceeds
// kMaxLevelDbFilterBaseLg, the offset array runs past the block or does not
// fill the space before the tail in whole fixed32s, the first filter does
// not start at 0, or offsets decrease or point past the array.
absl::StatusOr<LevelDbFilterBlock> ParseLevelDbFilterBlock(std::string contents);

}  // namespace sstfilter

#endif  // SSTFILTER_INSPECT_LEVELDB_FILTER_BLOCK_H_
