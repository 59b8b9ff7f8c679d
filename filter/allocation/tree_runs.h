// A column family's sorted runs as the per-level allocation sizes a table
// for: each run's entries, its tables, the part whose filters are already
// built, and the share of lookups that reach it. The census
// (table/census/) counts them from RocksDB's metadata as the running
// compactions will leave them; the model (table_fp_target.h) allocates
// over them. Plain data: no RocksDB type.
#ifndef SSTFILTER_FILTER_ALLOCATION_TREE_RUNS_H_
#define SSTFILTER_FILTER_ALLOCATION_TREE_RUNS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "filter/allocation/run_blocks.h"  // MissWindow

namespace sstfilter {

// One sorted run.
struct RunCensus {
  uint64_t keys = 0;    // Its entries once the running compactions are done.
  uint64_t tables = 0;  // The tables holding them now (inputs: at the output).
  // Of those, the entries of its tables that no running compaction
  // rewrites and whose filter bits are known, and those bits as built. The
  // rest of the run is being written now (or its filters are unknown: a
  // table from before the census, taken as sized by the allocation).
  uint64_t fixed_keys = 0;
  uint64_t fixed_filter_bits = 0;
  // Share of absent-key lookups that reach it (run_reach.h; 1 where the
  // keys are not in bytewise order).
  double reach = 1;
  // Of the fixed entries, those in tables without a filter block (a level
  // planned unfiltered): their Gets ask no filter (gets_from_answers.h).
  uint64_t unfiltered_keys = 0;
};

// What leveled compaction holds each level to (steady_tree.h); the census
// reads it from a column family's options.
struct LevelTargets {
  bool leveled = false;  // Leveled compaction; false: no targets.
  // L0's tables at steady state (half level0_file_num_compaction_trigger);
  // 0: no cap.
  int l0_tables = 0;
  // level_compaction_dynamic_level_bytes: each level's target is the
  // deepest level's entries over multiplier^(its distance from it); else
  // L1's is base_entries and each level's below multiplier times the last.
  bool dynamic = false;
  double multiplier = 10;
  double base_entries = 0;  // max_bytes_for_level_base in entries; 0: no cap.
  // Automatic compactions off: L0's tables stay where the flushes put them
  // until a compaction is asked for, their filters as built (the plan's
  // tree, tables_against_plan.h, keeps their bits).
  bool l0_stays = false;
};

// What a column family's tables hold per entry besides their filters: the
// blocks a Get reads after a filter passes it (filter/cache_model/cache_reads.h). The census
// sums them over its live tables' properties.
struct BlockShape {
  double entries = 0;  // The entries the sums cover; 0: not known.
  double data_bytes = 0, data_blocks = 0;
  double index_bytes = 0, index_blocks = 0;  // Partitions (or whole indexes).
  bool known() const { return entries > 0; }
};

struct TreeTraffic;  // tree_traffic.h

// One column family's runs.
struct TreeRuns {
  std::vector<RunCensus> l0_tables;  // Each L0 table, or L0 compaction output, a run.
  std::vector<RunCensus> levels;     // One run per level (index = level; [0] unused).
  LevelTargets targets;
  // The entries of the last flush the census saw; 0: none yet.
  uint64_t last_flush_keys = 0;
  // Where its lookups went, as of the census's last reading; nullptr if
  // not read (or keys not in bytewise order).
  std::shared_ptr<const TreeTraffic> traffic;
  // Its tables' index and data blocks per entry, as of the census's last
  // reading.
  BlockShape blocks;
  // The share of the Gets reaching its tables that found their key, from
  // the DB's statistics (per DB: RocksDB counts them so), else its filters'
  // answers (gets_from_answers.h), as of the census's last reading;
  // nullopt: too few Gets yet.
  std::optional<double> hit_share;
  // Whether hit_share is the DB's last instance's: a reopened DB's census
  // carries it over (table/census/traffic_file.h) until the DB's own Gets
  // say one.
  bool hit_share_carried = false;
  // The block cache's misses per Get that reached the tables, by kind of
  // block, from the DB's statistics over the same window as hit_share,
  // and the filter bytes the DB wrote meanwhile; nullopt: none, or the DB
  // has other column families (RocksDB counts them per DB).
  std::optional<MissWindow> observed_misses;
  // The Gets' spread fit already (filter/cache_model/spread_fit.h: the hot
  // width), taken instead of a fit to observed_misses: a tree whose filters
  // are not the ones the misses were counted on (every run free, as
  // tables_against_plan.h plans it) takes the fit of the tree as built.
  // nullopt: fit here, where the misses are known.
  std::optional<double> given_hot_width;
  // > 0: the tree a table of this level is rewritten on in place (the
  // census's rebuild loop): its filters' ranges take the share its own
  // level's tables saw (TableFpRule::ByRange::own_level).
  int rewrite_level = 0;
  // The host writes the deepest level's tables without a filter whatever
  // the policy would give them (RocksDB's optimize_filters_for_hits): the
  // allocation spends nothing there and the budget goes to the runs above.
  bool deepest_unfiltered = false;
};

// A level deeper than any: "no level goes unfiltered" where a level from
// which tables get no filter is asked for (filter/plan/cache_budget.h).
inline constexpr int kAllLevelsFiltered = 1 << 30;

// The deepest level holding entries (0 if only L0 does).
int DeepestLevel(const TreeRuns& runs);

// The mean entries of L0's tables; 0 if it has none.
double MeanL0TableKeys(const TreeRuns& runs);

// The entries a table being written at `level` (0: a flush) is expected to
// hold, before it holds any: a flush, the last flush's, else L0's tables'
// mean; a table at a level, that level's tables' mean; else the mean table
// of the nearest level that has tables (a flush and a compaction's output
// are both cut near the same size by default: 64 MiB memtables and
// target files); 0 if the tree has no table.
double ExpectedTableEntries(const TreeRuns& runs, int level);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_TREE_RUNS_H_
