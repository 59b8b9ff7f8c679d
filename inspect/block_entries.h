// The entries of a block, as RocksDB's block-based tables and LevelDB's
// tables write metaindex, properties and index blocks, every length checked:
// damage is a DataLoss status naming the entry and what is wrong.
//
//   block contents = entry* restart_offset(fixed32)* packed_count(fixed32)
//             (the top bit of packed_count flags a data-block hash index; the
//             low 31 bits are the restart count)
//   entry   = varint32 shared, varint32 non_shared, varint32 value_length,
//             key bytes after the shared prefix, value
//   index blocks with delta-encoded values (index_value_is_delta_encoded,
//             format_version >= 4) drop value_length; an entry with shared
//             == 0 holds a full handle, any other a zigzag varint64 size
//             delta from the previous handle, its offset being the previous
//             offset + size + trailer.
//
// Every restart offset must be the start of an entry with shared == 0:
// RocksDB seeks by binary search over them.
#ifndef SSTFILTER_INSPECT_BLOCK_ENTRIES_H_
#define SSTFILTER_INSPECT_BLOCK_ENTRIES_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "inspect/block_handle.h"

namespace sstfilter {

// Internal keys (RocksDB's and LevelDB's) end in 8 bytes of
// (sequence number << 8 | value type).
inline constexpr size_t kInternalKeyTrailer = 8;

struct BlockEntry {
  std::string key;
  std::string value;
};
// All entries of a block whose entries carry value lengths (metaindex,
// properties, and index blocks without value delta encoding).
absl::StatusOr<std::vector<BlockEntry>> ParseBlockEntries(std::string_view block);

struct IndexEntry {
  std::string key;
  BlockHandle handle;
};
// All entries of an index block whose values are bare block handles (no
// first-key field), delta-encoded or not.
absl::StatusOr<std::vector<IndexEntry>> ParseIndexBlock(std::string_view block,
                                                        bool value_delta_encoded);

}  // namespace sstfilter

#endif  // SSTFILTER_INSPECT_BLOCK_ENTRIES_H_
