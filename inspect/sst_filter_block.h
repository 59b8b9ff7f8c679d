// Finds and reads the filter of a block-based SST: footer -> metaindex ->
// "fullfilter.<name>" or "partitionedfilter.<name>" -> the filter bytes, and
// for partitioned filters the top-level partition index -> each partition.
// Bounds-checked throughout (see block_reader.h); damaged input is a DataLoss
// status naming the problem.
//
//   absl::StatusOr<SstFilter> filter = ReadSstFilter(*source, key_format);
//   for (size_t i : CandidatePartitions(*filter, user_key)) ... MayMatch ...
#ifndef SSTFILTER_INSPECT_SST_FILTER_BLOCK_H_
#define SSTFILTER_INSPECT_SST_FILTER_BLOCK_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "inspect/block_handle.h"
#include "inspect/sst_footer.h"
#include "inspect/sst_source.h"

namespace sstfilter {

// How the table's (filter partition) index stores keys and values; from the
// table properties index_key_is_user_key and index_value_is_delta_encoded.
struct SstIndexFormat {
  bool key_is_user_key = false;
  bool value_delta_encoded = false;
};

enum class SstFilterLayout {
  kNone,         // No filter meta block.
  kFull,         // One filter for the whole table.
  kPartitioned,  // One filter per partition, found through an index.
  kBlockBased,   // The obsolete per-data-block "filter.<name>" block: not read.
};

struct SstFilterPartition {
  // The user key every key of the partition is <= (the partition index key
  // with the 8-byte sequence/type trailer removed, if it has one). Empty for a
  // full filter.
  std::string last_user_key;
  BlockHandle handle;
  std::string contents;  // The filter bytes, trailer excluded.
};

struct SstFilter {
  SstFooter footer;
  SstFilterLayout layout = SstFilterLayout::kNone;
  // The policy's CompatibilityName, from the meta block name.
  std::string compatibility_name;
  std::string meta_block_name;
  // Full: the filter block; partitioned: the top-level partition index.
  BlockHandle meta_handle;
  // Full: one partition; partitioned: in index order (ascending keys, file
  // order); none / block-based: empty.
  std::vector<SstFilterPartition> partitions;

  // Sum of the partitions' filter bytes (without the partition index).
  size_t FilterBytes() const;
};

inline constexpr std::string_view kFullFilterPrefix = "fullfilter.";
inline constexpr std::string_view kPartitionedFilterPrefix = "partitionedfilter.";
inline constexpr std::string_view kBlockBasedFilterPrefix = "filter.";

// With verify_checksums, every block read (metaindex, filter, partition
// index, each partition) must match its trailer checksum.
absl::StatusOr<SstFilter> ReadSstFilter(const SstSource& file,
                                        const SstIndexFormat& index_format,
                                        bool verify_checksums = true);

// Indexes of the partitions that may hold user_key, for a table whose
// comparator orders keys bytewise. As RocksDB does: the first partition whose
// last key is >= user_key, or the last partition for a key past them all.
// When that partition's last key equals user_key, also the next one (and so
// on), since a user key's versions may straddle a partition boundary: more
// partitions only ever turn "absent" into "may be present", never the reverse.
// All partitions of a full filter (one); none for kNone / kBlockBased.
std::vector<size_t> CandidatePartitions(const SstFilter& filter,
                                        std::string_view user_key);

}  // namespace sstfilter

#endif  // SSTFILTER_INSPECT_SST_FILTER_BLOCK_H_
