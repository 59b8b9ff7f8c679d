// What the RocksDB policy writes for a table, from the
// FilterBuildingContext RocksDB describes it with (the same fields from 7.8
// to 11.x): the adapter reads where the table sits from the context, the
// census gives the tree it is sized for (table/census/table_tree.h), and the
// model gives the answer (filter/plan/table_choice.h).
//
// How the context maps onto TableSite (filter/allocation/table_site.h): a
// flush is reason kFlush or kRecovery (the memtable rebuilt from the WAL
// after a restart); the level is level_at_creation (-1: SstFileWriter,
// outside the tree); bottommost is is_bottommost; a tree has levels under
// leveled and universal compaction, none under FIFO or
// kCompactionStyleNone.
#ifndef SSTFILTER_TABLE_ROCKSDB_TABLE_SIZING_H_
#define SSTFILTER_TABLE_ROCKSDB_TABLE_SIZING_H_

#include <optional>
#include <string>

#include "filter/filter_options.h"
#include "filter/plan/cache_budget.h"
#include "filter/plan/table_choice.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"

namespace sstfilter {

// The block cache a cache_aware policy sizes filters for: the table
// options' block cache at the policy's cache_share, when the filters live
// in it (cache_index_and_filter_blocks, or partitioned filters, whose
// partitions RocksDB always reads through it); nullopt when they do not
// (whole filters held by the table readers, or no block cache), where
// cache_aware falls back to optimize_levels alone.
std::optional<CacheSite> CacheSiteOf(const FilterOptions& options,
                                     const rocksdb::BlockBasedTableOptions& table);

// Why a cache_aware policy falls back to optimize_levels alone with these
// table options (null: not a block-based table's), as its log line says;
// empty when it does not (or is not cache_aware).
std::string CacheAwareFallback(const FilterOptions& options,
                               const rocksdb::BlockBasedTableOptions* table);

// The encoding and setting of the filters of the table `context` describes;
// under optimize_levels, sized for the tree the census has for its job (or
// its latest). REQUIRES: options resolved.
TableChoice ChooseForTable(const FilterOptions& options,
                           const rocksdb::FilterBuildingContext& context);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_TABLE_SIZING_H_
