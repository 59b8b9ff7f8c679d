// The per-level policy's FP target for one table (optimize_levels): the FP
// of the sorted run the table joins, allocated over the tree's runs
// (tree_runs.h) at the policy's budget (run_allocation.h).
#ifndef SSTFILTER_FILTER_ALLOCATION_TABLE_FP_TARGET_H_
#define SSTFILTER_FILTER_ALLOCATION_TABLE_FP_TARGET_H_

#include "filter/allocation/filter_keys.h"
#include "filter/allocation/table_fp_rule.h"
#include "filter/allocation/tree_runs.h"
#include "filter/allocation/tree_traffic.h"
#include "filter/encoding_id.h"
#include "filter/filter_options.h"

namespace sstfilter {

// A table's place in the tree, as the allocation needs it.
struct TablePlace {
  int level = 0;        // 0: a flush or an L0 table (a run of its own).
  EncodingId encoding;  // What its filter is written in.
};

// The FP rule (table_fp_rule.h) of a table at `place` expected to hold
// `expected_entries` entries (the census's expectation for its level:
// the table is decided once, before its filters hold anything), with the
// tree's other runs as `runs` describes them (the levels above the table's
// held to their targets: steady_tree.h), at the options' budget over that
// tree, less what the tables not being rewritten hold
// (AllocateFreeRuns). Runs are weighed by keys: an L0 table's run is the
// table itself (expected_entries, or the L0 tables' mean if larger); a
// level's run is its entries once the running compactions are done, at
// least its fixed part plus the table. Each run's reach (the census's)
// weighs its FP; the table's own L0 run counts as reached by every lookup.
// L0's tables repay their debt together, each level its own. Where L0's
// tables stay (runs.targets.l0_stays: nothing compacts them), a table
// below L0 is planned without them, on the tree's uniform bits (at most
// the budget) less the bits they hold: the levels repay what L0 holds over
// its share, and under a budget take what it holds under it (bare L0
// tables); a budget L0 holds whole leaves the levels at the largest FP a
// run takes.
//
// With access_aware, once the tree's traffic is known (TrafficFor), each
// level below L0 is split by the lookups its tables saw
// (traffic_parts.h), and a filter of a table there whose key range is
// known is a run of its own, reached by the lookups of its range, at the
// multiplier the table's level got (TableFpRule::ByRange).
//
// Levels at or below `unfiltered_from` (filter/plan/cache_budget.h's plan),
// and the deepest where runs.deepest_unfiltered says the host writes it
// without filters, have none and take none of the budget.
// REQUIRES: options resolved; place.level < unfiltered_from.
TableFpRule TableFpRuleFor(const FilterOptions& options, const TreeRuns& runs,
                           const TablePlace& place, double expected_entries,
                           int unfiltered_from = kAllLevelsFiltered);

// The FP target of the filter holding `keys`, the table expected to hold
// as many: TableFpRuleFor then FilterFp (the model's tests ask it so).
double TableFpTarget(const FilterOptions& options, const TreeRuns& runs, const TablePlace& place,
                     const FilterKeys& keys, int unfiltered_from = kAllLevelsFiltered);

// The traffic TableFpTarget weighs runs by: the tree's, when access_aware
// and known; else nullptr.
const TreeTraffic* TrafficFor(const FilterOptions& options, const TreeRuns& runs);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_TABLE_FP_TARGET_H_
