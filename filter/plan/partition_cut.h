// How RocksDB cuts a table's filter into partitions, and what its filters
// then hold: a table built as planned is judged against the filters it is
// in fact cut into (a smaller filter spends more a key) and the partition
// index RocksDB counts with them (its filter_size property).
//
// RocksDB's partitioned filter builder asks the filter builder, before it
// holds any key, how many keys fit CacheSite::PartitionCutBytes
// (ApproximateNumEntries); the policy's builder answers at the encoding's
// nominal setting, and takes each filter's own setting only as it is
// finished. Decoupled from the index (decouple_partitioned_filters, the
// default from RocksDB 10), a partition is cut at that many keys, and its
// entry in the partition index is its last user key in full; cut with the
// index, where the index cuts (CacheSite::FilterBlocks estimates those),
// under the index's own separators.
#ifndef SSTFILTER_FILTER_PLAN_PARTITION_CUT_H_
#define SSTFILTER_FILTER_PLAN_PARTITION_CUT_H_

#include "filter/encoding_id.h"
#include "filter/plan/cache_budget.h"

namespace sstfilter {

// The keys RocksDB puts in each decoupled partition of `encoding` (at
// least 1): the most its builder at nominal_bits says fit `cut_bytes`,
// or, where none fit, the most that fit the first size a quarter larger
// at a time that holds one (RocksDB's own search; cut_bytes keys past
// 100,000 bytes).
double KeysPerPartition(EncodingId encoding, double nominal_bits, double cut_bytes);

// A table's keys as its filters hold them: `full` filters of `keys` keys
// each and, where the keys ran out first, one more of `tail` keys.
struct FilterCut {
  double full = 1;
  double keys = 0;
  double tail = 0;
  double filters() const { return full + (tail > 0 ? 1 : 0); }
};

// The table's keys that bound its partitions.
struct TableKeys {
  double entries = 0;
  double user_key_bytes = 0;   // Their mean (0: not known).
  double index_partitions = 0;  // Its index's (0: not known, or a whole index).
  double index_top_bytes = 0;   // Its index's top level (0: not known).
};

// The filters of `table` at `cache` (null: not in a block cache, one
// filter) whose filters hold `filter_bytes` together.
FilterCut CutOf(const CacheSite* cache, EncodingId encoding, double nominal_bits,
                const TableKeys& table, double filter_bytes);

// The bytes of the partition index over `filters` partitions of `table`
// at `cache`: an entry a partition (its key, the lengths, the block handle
// and a restart offset) and the count of restarts; 0 where the filter is
// whole or its keys are not known.
double PartitionIndexBytes(const CacheSite* cache, const TableKeys& table, double filters);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_PLAN_PARTITION_CUT_H_
