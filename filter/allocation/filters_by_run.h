// A DB's live tables and their filters, grouped into the sorted runs an
// absent-key Get checks, with each run's reach (TreeReaches, as the census
// measures it): the advisor's view of a tree (tools/db_advisor.h).
#ifndef SSTFILTER_FILTER_ALLOCATION_FILTERS_BY_RUN_H_
#define SSTFILTER_FILTER_ALLOCATION_FILTERS_BY_RUN_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "filter/allocation/run_blocks.h"
#include "filter/allocation/tree_runs.h"
#include "filter/allocation/tree_traffic.h"
#include "filter/encoding_id.h"

namespace sstfilter {

// One live table and its filters.
struct TableFilters {
  uint64_t file_number = 0;
  int level = 0;
  std::string smallest, largest;  // User keys.
  uint64_t keys = 0;              // Filter entries.
  uint64_t filter_bytes = 0;
  // A partitioned filter's index (RocksDB's filter_size counts it, the
  // census with it), its keys' mean user key bytes and its index's top
  // level (filter/plan/partition_cut.h).
  uint64_t partition_index_bytes = 0;
  double user_key_bytes = 0;
  uint64_t index_top_bytes = 0;
  double fp_rate = 1;  // Modelled, per absent key checked (1: no filter).
  std::string kind;    // "RocksDB FastLocalBloom k=6", "cache_local k=6", "none", ...
  // What the per-level policy would write it in (ours: its own encoding;
  // RocksDB's Bloom: cache_local; Ribbon: compact).
  EncodingId encoding = EncodingId::kCacheLocal;
  // The blocks a Get may read from it (filter/cache_model/cache_reads.h): its filter's blocks
  // (partitions, or the one full filter; 0: none), its index's (partitions,
  // or the whole index; the pinned top level left out) and its data blocks.
  uint64_t filter_blocks = 0;
  uint64_t index_bytes = 0, index_blocks = 0;
  uint64_t data_bytes = 0, data_blocks = 0;
};

// One sorted run: an L0 table, or a level's tables.
struct TreeRun {
  int level = 0;
  std::vector<TableFilters> tables;
  double reach = 1;  // Share of absent keys that check one of its filters.

  uint64_t keys() const;
  uint64_t filter_bytes() const;
  // Key-weighted over its tables: an absent key checks the one whose range
  // holds it.
  double fp_rate() const;
  // The encoding of most of its keys.
  EncodingId encoding() const;
};

// The run's blocks as the cache model sees them (filter/cache_model/cache_reads.h).
RunBlocks BlocksOf(const TreeRun& run);

// The runs as the census would count them (each L0 run its own, its
// filters as built; each level one, free; their index and data blocks as
// its block shape), for the cache-aware plan (filter/plan/cache_budget.h).
TreeRuns CensusOf(const std::vector<TreeRun>& runs);

// Each L0 table a run, each other level one, in level order, each run's
// reach its TreeReaches (run_reach.h): 1 unless the keys are `bytewise`.
std::vector<TreeRun> GroupIntoRuns(std::vector<TableFilters> tables, bool bytewise);

// The share of absent-key Gets that check a table's filter (measured
// traffic, or a benchmark's known draw).
using TableShare = std::function<double(const TableFilters&)>;

// The runs' tables with their `share` of the Gets, as the census would
// measure them (tree_traffic.h), for the cache model's popularity
// (PopularityOf): counted as known traffic, each table's share its own
// (lived through every Get counted: TreeTraffic::LivedAt 1), each level's
// tables in bytewise key order; each drew `sampled` sampled Gets where
// given (TableTraffic::sampled), else none is known.
TreeTraffic TrafficOf(const std::vector<TreeRun>& runs, const TableShare& share,
                      const TableShare& sampled = nullptr);

// Each table a run of its own, reached by its `share` of the Gets: the tree
// as access-aware allocation sees it (each table's FP weighed by its own
// lookups), in level order.
std::vector<TreeRun> TablesAsRuns(std::vector<TableFilters> tables, const TableShare& share);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_FILTERS_BY_RUN_H_
