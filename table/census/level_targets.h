// What leveled compaction holds a column family's levels to
// (LevelTargets, filter/allocation/steady_tree.h), from its options.
#ifndef SSTFILTER_TABLE_CENSUS_LEVEL_TARGETS_H_
#define SSTFILTER_TABLE_CENSUS_LEVEL_TARGETS_H_

#include "filter/allocation/tree_runs.h"
#include "rocksdb/options.h"

namespace sstfilter {

// The targets under `options`; max_bytes_for_level_base is turned into
// entries at bytes_per_entry (0: L1 has no cap). Not leveled, or automatic
// compactions off: no targets.
LevelTargets LevelTargetsOf(const rocksdb::ColumnFamilyOptions& options, double bytes_per_entry);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_LEVEL_TARGETS_H_
