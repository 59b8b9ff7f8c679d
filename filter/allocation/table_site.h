// Where a table being built sits in its tree, as the per-level model reads
// it: the RocksDB adapter fills it from FilterBuildingContext
// (table/rocksdb/table_sizing.h).
#ifndef SSTFILTER_FILTER_ALLOCATION_TABLE_SITE_H_
#define SSTFILTER_FILTER_ALLOCATION_TABLE_SITE_H_

#include <algorithm>

namespace sstfilter {

struct TableSite {
  // Leveled or universal compaction: tables move down into lower levels.
  // FIFO keeps every table where it was written.
  bool tree_has_levels = true;
  bool flush = false;       // The memtable written out to L0 (or rebuilt from the WAL).
  int level = 0;            // Its level; -1: not in the tree (a file written outside it).
  bool bottommost = false;  // The last sorted run of its key range.
  // The entries it will hold, where known (a live table's); 0: not yet
  // known (a table being built: the tree's expectation for its level,
  // ExpectedTableEntries in tree_runs.h).
  double entries = 0;

  // Whether the table joins the tree's runs: a flush or a table at a level.
  bool in_tree() const { return flush || level >= 0; }
  // The level of the run it joins (0: a flush, an L0 run of its own).
  int run_level() const { return flush ? 0 : std::max(level, 0); }
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_TABLE_SITE_H_
