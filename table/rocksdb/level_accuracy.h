// The per-level policy's setting for one table (optimize_levels): the FP
// target of the sorted run the table joins, allocated over the tree's runs
// at the policy's budget (filter/level_allocation.h), the runs read from
// the level census (level_census.h).
#ifndef SSTFILTER_TABLE_ROCKSDB_LEVEL_ACCURACY_H_
#define SSTFILTER_TABLE_ROCKSDB_LEVEL_ACCURACY_H_

#include <cstddef>
#include <functional>
#include <optional>

#include "filter/encoding_id.h"
#include "filter/filter_options.h"
#include "table/rocksdb/filter_keys.h"
#include "table/rocksdb/level_census.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {

// A table's place in the tree, as the allocation needs it.
struct TablePlace {
  int level = 0;      // 0: a flush or an L0 table (a run of its own).
  EncodingId encoding;  // What its filter is written in.
};

// The FP target of a table at `place` whose filter holds num_entries
// entries, with the tree's other runs as `runs` describes them (the levels
// above the table's held to their targets: steady_tree.h), at the
// options' budget over that tree, less what the tables not being rewritten
// hold (AllocateFreeRunFpRates). Runs are weighed by keys: an L0 table's
// run is the table itself (num_entries, or the L0 tables' mean if larger:
// partitioned filters finish a partition at a time); a level's run is its
// entries once the running compactions are done (future_tree.h), at least
// its fixed part plus the table. Each run's reach (the census's) weighs its
// FP; the table's own L0 run counts as reached by every lookup. L0's tables
// repay their debt together, each level its own.
//
// With access_aware, once the tree's traffic is known (tree_traffic.h), a
// table below L0 whose key range is known is a run of its own, reached by
// the lookups of its range, and each level's other tables are split by
// the lookups they saw (traffic_parts.h).
// REQUIRES: options resolved.
double TableFpTarget(const FilterOptions& options, const TreeRuns& runs, const TablePlace& place,
                     const FilterKeys& keys);

// For the adapter (bits_builder_adapter.h): the bits/key of each filter the
// table `context` describes, from its entry count, sized for the tree the
// census listener handed over for its job (census_handoff.h), or else the
// census's latest; empty when the uniform setting applies: optimize_levels
// off, a table outside the tree (SstFileWriter), or no tree for its DB and
// column family (no LevelCensusListener, or a recovery flush whose DB
// could not be read).
// With access_aware, once the tree's traffic is known, each filter of a
// table below L0 (a partition, with partitioned filters) is sized for its
// own key range: reads_range says so, and only then does the builder track
// its keys' range.
struct LevelSetting {
  FilterSetting setting;
  bool reads_range = false;
};
LevelSetting LevelBitsForTable(const FilterOptions& options,
                               const rocksdb::FilterBuildingContext& context, EncodingId encoding);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_LEVEL_ACCURACY_H_
