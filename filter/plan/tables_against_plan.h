// Live tables against today's plan (rebuild_gain.h's TableAgainstPlan):
// the bits each table's filters were built with beside those today's plan
// gives its level (table_choice.h's ChooseForSite over the tree with every
// run free: the plan owing nothing to tables built under another, which
// the rebuilds bring to it too; the census counts the tables the loop is
// to rewrite free, census_tree.h, so that each rewrite is sized so). The census
// (table/census/off_plan_tables.h) and the advisor (tools/) list their
// tables into it.
#ifndef SSTFILTER_FILTER_PLAN_TABLES_AGAINST_PLAN_H_
#define SSTFILTER_FILTER_PLAN_TABLES_AGAINST_PLAN_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "filter/allocation/tree_runs.h"
#include "filter/filter_options.h"
#include "filter/plan/cache_budget.h"
#include "filter/plan/cache_plan_memo.h"
#include "filter/plan/rebuild_gain.h"

namespace sstfilter {

// A live table as built.
struct BuiltTable {
  uint64_t number = 0;  // Its file number.
  int level = 1;
  double entries = 0;
  double file_bytes = 0;
  double filter_bits = 0;  // All its filters' (0: none).
  // Its index's partitions (0: not known, or a whole index): where RocksDB
  // cuts filter partitions with them (CacheSite::FilterBlocks), its
  // filter has at least as many.
  double index_partitions = 0;
  // Its keys' mean user key bytes and its index's top level (0: not
  // known): a partitioned filter's index holds partition keys
  // (partition_cut.h), and filter_bits counts it as RocksDB's filter_size
  // does.
  double user_key_bytes = 0;
  double index_top_bytes = 0;
  // Its least and greatest user key (has_range false: not known), by which
  // access-aware allocation sizes its filters.
  bool has_range = false;
  std::string smallest = {}, largest = {};
};

// The tree today's plan is made on: `runs` with every run free, owing
// nothing to tables built under another plan (the rebuilds bring those to
// it too), but L0's where it stays (LevelTargets::l0_stays: nothing
// compacts its tables, which the loop never rewrites, so the levels repay
// what they hold over their share), its spread the one fit to the tree as
// built (the misses the DB counted are of the filters its tables hold; fit
// only for cache_aware, the one plan that reads it). A rewrite the census's loop weighs by its
// false positives builds its filter on this tree, so that it is built to
// the plan it was weighed against (the cache model's rewrites are built on
// the census's tree). REQUIRES: options resolved.
std::shared_ptr<TreeRuns> FreeTree(const FilterOptions& options, const TreeRuns& runs,
                                   const CacheSite* cache);

// How the host builds a table's filter, beyond the policy's choice.
struct TableHost {
  bool tree_has_levels = true;  // As TableSite's.
  // Its comparator orders user keys bytewise (RocksDB's default): only then
  // do the tables' listed key ranges compare as strings.
  bool bytewise = true;
  // The host writes bottommost tables without a filter whatever the policy
  // gives them (RocksDB's optimize_filters_for_hits): those of the deepest
  // level, and those above it with nothing below their key range. They are
  // planned without one (a rewrite gives them none), and the plan spends
  // nothing on the deepest level (TreeRuns::deepest_unfiltered, set on the
  // tree planned on).
  bool deepest_unfiltered = false;
  // Its automatic compactions are off: L0's tables stay
  // (LevelTargets::l0_stays, set on the tree planned on).
  bool l0_stays = false;

  // `runs` with what the host says of it set.
  void SetOn(TreeRuns* runs) const {
    runs->deepest_unfiltered = deepest_unfiltered;
    runs->targets.l0_stays = l0_stays;
  }
};

// Each of `tables` below L0 of the tree `runs` (and each L0 table that
// L0TableToPlan in the source lets be rewritten in place: under
// access_aware, no cache modelled, compactions running, the table's Gets
// known and lived through; TableAgainstPlan::l0_reach its reach), against
// the choice `options` give it at
// `cache` (null: the filters are not in a block cache) through `plans`
// (the column family's memo; null: none), built by `host`. Tables of no
// entries and those whose choice is the uniform setting (not sized by the
// tree) are left out; those the host writes without a filter are planned
// without one (bottommost by `tables`' ranges: tables being compacted may
// be missing from them). Where the choice
// sizes filters by their key range (access_aware) and no cache is
// modelled, a table whose range is known is planned as one filter of its
// range (its share, TableAgainstPlan::share), each of its partitions at
// that FP: its partitions' ranges are not known here, and the builder
// sizes each by its own; one that has lived through less than
// kMinLivedShare of the counted Gets (tree_traffic.h) is planned as built.
// With a cache, a table is planned by its level.
// REQUIRES: options resolved.
std::vector<TableAgainstPlan> TablesAgainstPlan(const FilterOptions& options,
                                                const std::shared_ptr<const TreeRuns>& runs,
                                                const CacheSite* cache, CachePlanMemo* plans,
                                                const TableHost& host,
                                                const std::vector<BuiltTable>& tables);

// `runs` with each level's tables counted as `tables` (every live table
// below L0) were built: their entries fixed at their bits, those without a
// filter unfiltered (rebuild_gain.h weighs today's tree so).
TreeRuns AsBuilt(TreeRuns runs, const std::vector<BuiltTable>& tables);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_PLAN_TABLES_AGAINST_PLAN_H_
