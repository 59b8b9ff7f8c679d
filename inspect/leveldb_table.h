// Just enough of a LevelDB table file (.ldb, or .sst from LevelDB before
// 1.14; LevelDB 1.23's table/format.cc and table_builder.cc, read for their
// facts) to find its filter block and map data blocks to filters. Every read
// is bounds-checked; damage is a DataLoss status naming it.
//
//   file      = data_block* filter_block? metaindex_block index_block footer
//   footer    = the legacy 48-byte block-based footer (sst_footer.h)
//   block     = RocksDB's block format, which is LevelDB's: entries and
//               restarts, then a 5-byte trailer: compression type (0 none,
//               1 Snappy) and the masked CRC32C of contents and type byte
//   metaindex = "filter.<policy Name()>" -> the filter block's handle (the
//               only meta block LevelDB writes; it ignores unknown ones)
//   index     = one entry per data block, in file order: an internal key
//               (user key + 8-byte trailer) >= every key of the block and
//               < every key of the next, and the block's handle
//
// LevelDB's TableBuilder passes every block but the filter block through
// the table's compression (data, metaindex and index blocks may be Snappy-
// compressed, when that saves 1/8); the filter block is written raw.
//
// Tables of a LevelDB database hold internal keys; a table written with
// TableBuilder outside a database holds whatever keys it was given, which
// this reader would take for internal keys.
#ifndef SSTFILTER_INSPECT_LEVELDB_TABLE_H_
#define SSTFILTER_INSPECT_LEVELDB_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "filter/leveldb/bloom.h"  // kLevelDbBuiltinPolicyName
#include "inspect/block_entries.h"
#include "inspect/block_handle.h"
#include "inspect/leveldb_filter_block.h"
#include "inspect/sst_footer.h"
#include "inspect/sst_source.h"

namespace sstfilter {

inline constexpr std::string_view kLevelDbFilterPrefix = "filter.";

struct LevelDbTable {
  SstFooter footer;
  // The policy named by the "filter.<name>" metaindex entry; empty when the
  // table has no filter block (then `filter` is empty too).
  std::string filter_policy;
  BlockHandle filter_handle;
  std::optional<LevelDbFilterBlock> filter;
  // The data blocks, in file order; keys are internal keys.
  std::vector<IndexEntry> index;
  uint8_t index_compression = 0;
};

// Whether file is a LevelDB table rather than a RocksDB one: a legacy footer
// (RocksDB writes one only at format_version 0) whose metaindex does not
// name RocksDB's properties block. A metaindex that cannot be read names
// nothing: ReadLevelDbTable then reports the damage.
bool IsLevelDbTable(const SstSource& file);

// Reads footer, metaindex, index and filter block (with verify_checksums,
// each against its trailer checksum; data blocks are not read) and checks
// that they fit together: index keys are internal keys in strictly ascending
// order, data blocks lie before the meta blocks without overlapping, the
// filter block is uncompressed and has a filter for every data block and no
// more filters than the data span needs.
absl::StatusOr<LevelDbTable> ReadLevelDbTable(const SstSource& file, bool verify_checksums);

// The user key of an internal key. REQUIRES: internal_key.size() >= 8.
std::string_view UserKeyOf(std::string_view internal_key);

// LevelDB's internal key order: user keys bytewise, then the 8-byte trailer
// (sequence << 8 | type) descending. <0, 0, >0 like memcmp.
// REQUIRES: both keys are >= 8 bytes.
int CompareInternalKeys(std::string_view a, std::string_view b);

// The data blocks (indexes into table.index) a lookup of user_key reads, as
// LevelDB's Get would find them: the first block whose index key's user key
// is >= user_key, and the following ones while the index key's user key
// equals user_key (the key's versions may straddle blocks; asking more
// filters only turns "absent" into "may be present"). Empty for a key after
// the table's last key.
std::vector<size_t> CandidateBlocks(const LevelDbTable& table, std::string_view user_key);

}  // namespace sstfilter

#endif  // SSTFILTER_INSPECT_LEVELDB_TABLE_H_
