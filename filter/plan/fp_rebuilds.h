// Which live tables to rebuild where no block cache is modelled
// (optimize_levels without cache_aware, or with it but no block cache
// holding the filters): by the allocation's own measure, the false
// positives an absent-key Get reads (each run's reach times its mean FP,
// filter/allocation/run_allocation.h), and within the bits the plan spends
// on the tables below L0 (of the uniform setting's over the tree, or
// budget_mb). The plan moves bits from one level to another as the tree
// grows: a rewrite that adds bits is made only into room, a rewrite that
// frees bits while those tables hold more than the plan gives them
// (kBudgetSlack), or to make room for one that saves more reads a bit
// than it adds. Pure arithmetic: the census runs
// the rewrites (table/census/rebuild_loop.h), as for the cache model's
// gains (rebuild_gain.h).
#ifndef SSTFILTER_FILTER_PLAN_FP_REBUILDS_H_
#define SSTFILTER_FILTER_PLAN_FP_REBUILDS_H_

#include <limits>
#include <map>
#include <vector>

#include "filter/allocation/tree_runs.h"
#include "filter/filter_options.h"
#include "filter/plan/rebuild_gain.h"

namespace sstfilter {

// What a column family's listed tables (below L0, and the L0 tables
// access_aware rewrites in place: tables_against_plan.h) may hold and
// hold, in bits: the plan's spend on them (its budget, the uniform
// setting's bits or budget_mb over the tree, less L0's share; with
// budget_mb, at most budget_mb less what the L0 tables not listed hold)
// and theirs as built. While compactions run the plan
// counts L0 as compaction keeps it (steady_tree.h) and the levels below do
// not repay what a burst holds over that (the tables that hold it are soon
// compacted; run_allocation.h); with compactions off it counts every L0
// table, and the levels get what L0's runs leave.
struct TreeBits {
  double budget = 0;
  double built = 0;
  // The most they may hold after rewrites that add bits: the whole tree's
  // bits (the uniform setting's or budget_mb) less what the L0 tables not
  // listed hold.
  // Where compactions run, an L0 holding more than its share leaves the
  // levels less room to add into, though no bits are freed to repay it:
  // the plan's own tree, which the rewrites are built on, counts L0 at its
  // share, and adds into the difference took the tree to 1.04x the uniform
  // bytes. Where L0 stays, the plan itself repays it (table_fp_target.h).
  double add_limit = std::numeric_limits<double>::infinity();
};

// How far over the plan's bits a tree may be before the loop frees bits
// that save no reads (back to the plan's bits: a tree drifting over is not
// rewritten a table at a time): the byte budget's aim.
inline constexpr double kBudgetSlack = 0.03;

// The bits rewriting the table adds (negative: frees).
double AddedBits(const TableRebuild& rebuild);

// For each of `tables` that is off the plan or over it (OverPlan: more
// than kOffPlanBits a key over, within a band planned by range or past
// the slack), what rebuilding it saves (the absent-key reads per Get: its
// share of the Gets, or its reach, times its FP as built against at the
// plan) and costs (its bytes read and written), in the tree `runs` as
// built (AsBuilt); `bits` gets those of `tables` (every table the loop
// weighs whose bits are known). Tables whose level holds no run of `runs`
// are left out, and those of a level whose off-plan tables add bits and
// together save no more than kRebuildMargin of today's reads, unless the
// level is `under_way` that way (the loop began its move: each table's
// saving stands alone in this measure, so the move is carried through).
// A table over its plan but within its band, where the tables hold no
// more than (1 + kBudgetSlack) of their plans' bits, is listed after the
// rest and weighed alone: RebuildsWithinBudget frees it only to make room
// for an add that saves more reads a bit, or where the tree is past the
// slack over budget_mb (which plans by range can sum past, so that such a
// tree is not past it over its plans) (a hot table's add found no room
// where the cold tables' surplus sat within their bands, and the tree
// stayed 1.1-1.2x from the per-table optimum). REQUIRES: options resolved.
std::vector<TableRebuild> FpRebuildGains(const FilterOptions& options, const TreeRuns& runs,
                                         const std::vector<TableAgainstPlan>& tables,
                                         const std::map<int, bool>& under_way, TreeBits* bits);

// Of `gains` (FpRebuildGains), those to rewrite now, in order: first those
// that free bits and save reads, each paying for itself at
// `gets_per_second` (BreakEvenGetsPerSecond); then, where the tree holds
// more than (1 + kBudgetSlack) of its budget, those that free bits, fewest
// reads added a bit freed first, until it holds no more than the budget
// itself; then those that add bits and pay for
// themselves, most reads saved a bit first, each into the room left under
// the budget itself or made by freeing bits that add fewer reads a bit
// than it saves.
std::vector<TableRebuild> RebuildsWithinBudget(std::vector<TableRebuild> gains,
                                               double gets_per_second, const TreeBits& bits);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_PLAN_FP_REBUILDS_H_
