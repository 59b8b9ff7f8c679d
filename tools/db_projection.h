// What sstfilter_sst --db projects for a RocksDB database, as a function:
// its live tables read as the advisor reads them (live_tables.h), grouped
// into sorted runs (filter/allocation/filters_by_run.h), and optimize_levels' allocation for that
// tree at today's filter bytes (filter/allocation/tree_projection.h). Benchmarks compare what
// a policy measured on its own tree with this optimum.
#ifndef SSTFILTER_TOOLS_DB_PROJECTION_H_
#define SSTFILTER_TOOLS_DB_PROJECTION_H_

#include <string>

#include "absl/status/statusor.h"
#include "filter/allocation/filters_by_run.h"
#include "filter/allocation/tree_projection.h"

namespace sstfilter {

// The projection of the default column family of the DB at `dir`, which
// another instance in this process or another may be writing (live_tables.h
// lists its tables again while a compaction removes some). An error when
// the DB cannot be opened, a live table cannot be read, or the column
// family has no table with keys.
// With `share`, each table is weighed by its own share of the Gets
// (TablesAsRuns): access-aware allocation's projection.
absl::StatusOr<TreeProjection> ProjectDbTree(const std::string& dir,
                                             const TableShare& share = nullptr);

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_DB_PROJECTION_H_
