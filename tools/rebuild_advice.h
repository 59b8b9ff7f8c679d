// sstfilter_sst --db DIR's section on rebuilds: the live tables below L0
// (and, under access_aware without a cache, the L0 tables the loop
// rewrites in place) whose filters are off the plan (the cache-aware one the cache section
// shows, or the per-level plan without a cache)
// (filter/plan/tables_against_plan.h), what rewriting each would save and
// cost (filter/plan/rebuild_gain.h), and from which Get rate the census's
// rebuild loop (table/census/rebuild_loop.h) rewrites it.
#ifndef SSTFILTER_TOOLS_REBUILD_ADVICE_H_
#define SSTFILTER_TOOLS_REBUILD_ADVICE_H_

#include <vector>

#include "filter/allocation/filters_by_run.h"
#include "filter/allocation/tree_runs.h"
#include "filter/filter_options.h"
#include "filter/plan/cache_budget.h"
#include "filter/plan/tables_against_plan.h"
#include "table/census/level_moves.h"
#include "table/census/traffic_file.h"

namespace sstfilter {

// Prints the section for `runs` (newest first) counted as `census` (its
// Gets' spread and share), under the cache-aware `options` at `cache`;
// `moves`: the levels whose move the loop began within kPaybackHorizon (as
// the traffic file says), which it carries through, and whose tables to be
// moved the other way wait (table/census/level_moves.h).
// `share_from`: whence the section's share of Gets found came (the loop
// rewrites nothing while it is assumed). `host`: how RocksDB builds the
// column family's filters (tables it writes without one are left out).
void PrintRebuildAdvice(const std::vector<TreeRun>& runs, TreeRuns census,
                        const FilterOptions& options, const CacheSite& cache,
                        const LevelMoveTimes& moves, HitShareFrom share_from,
                        const TableHost& host);

// The same for a column family whose policy sizes its filters by the tree
// but not for a block cache (optimize_levels without cache_aware): the
// tables off the per-level plan, what each saves by its false positives
// and the bits it adds or frees (filter/plan/fp_rebuilds.h), and what the
// loop rewrites within the plan's bits. Under access_aware each table is
// planned by its key range's share of the Gets, as the traffic summary's
// `shares` say (nullptr: none known, so none is weighed, as the loop does
// until the tree's traffic is known), each off its plan past a band as
// narrow as the sampled Gets its `exposures` give it (nullptr: the widest).
void PrintFpRebuildAdvice(const std::vector<TreeRun>& runs, const FilterOptions& options,
                          const LevelMoveTimes& moves, const TableShares* shares,
                          const TableShares* exposures, const TableHost& host);

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_REBUILD_ADVICE_H_
