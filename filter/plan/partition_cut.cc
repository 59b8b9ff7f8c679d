#include "filter/plan/partition_cut.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "filter/allocation/encoding_model_memo.h"

namespace sstfilter {

namespace {

// Past this many bytes RocksDB stops looking for a size that holds a key.
constexpr double kLargestCutSearched = 100000;
// A partition index entry's bytes beside its key (restart interval 1, as
// index_block_restart_interval's default): the key's two lengths, a block
// handle of file offset and size (3 + 2 varint bytes) and the restart
// offset; and the index block's count of restarts.
constexpr double kEntryBytesBesideKey = 11;
constexpr double kIndexBlockBytes = 4;

}  // namespace

double KeysPerPartition(EncodingId encoding, double nominal_bits, double cut_bytes) {
  const auto fit = [&](double bytes) {
    return static_cast<double>(
        MemoMaxEntriesForSize(encoding, static_cast<size_t>(bytes), nominal_bits));
  };
  if (const double keys = fit(cut_bytes); keys >= 1) return keys;
  for (double larger = std::max(cut_bytes + 4, 16.0); larger <= kLargestCutSearched;
       larger += std::floor(larger / 4)) {
    if (const double keys = fit(larger); keys >= 1) return keys;
  }
  return std::max(cut_bytes, 1.0);
}

FilterCut CutOf(const CacheSite* cache, EncodingId encoding, double nominal_bits,
                const TableKeys& table, double filter_bytes) {
  const double entries = std::max(table.entries, 1.0);
  if (cache == nullptr || !cache->partitioned) return {1, entries, 0};
  if (cache->partitions_coupled) {
    const double parts = cache->FilterBlocks(filter_bytes, 1, table.index_partitions);
    return {parts, entries / parts, 0};
  }
  const double keys = KeysPerPartition(encoding, nominal_bits, cache->PartitionCutBytes());
  if (entries <= keys) return {1, entries, 0};
  const double full = std::floor(entries / keys);
  return {full, keys, entries - full * keys};
}

double PartitionIndexBytes(const CacheSite* cache, const TableKeys& table, double filters) {
  if (cache == nullptr || !cache->partitioned) return 0;
  if (cache->partitions_coupled) {
    if (table.index_partitions <= 0 || table.index_top_bytes <= 0) return 0;
    return filters * table.index_top_bytes / table.index_partitions;
  }
  if (table.user_key_bytes <= 0) return 0;
  return filters * (table.user_key_bytes + kEntryBytesBesideKey) + kIndexBlockBytes;
}

}  // namespace sstfilter
