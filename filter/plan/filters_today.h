// The filters a column family's runs hold as built, summed per run, and
// the runs' blocks with them: the tree as it is, which the spread's fit
// (cache_budget.h: PlanWorkload) and the rebuild gains (rebuild_gain.h)
// weigh. A run whose tables were built under different plans holds
// filters in some of its tables only: a Get that reaches one of the others
// checks no filter there (RunBlocks::filtered_share). Pure arithmetic.
#ifndef SSTFILTER_FILTER_PLAN_FILTERS_TODAY_H_
#define SSTFILTER_FILTER_PLAN_FILTERS_TODAY_H_

#include <vector>

#include "filter/allocation/run_blocks.h"
#include "filter/allocation/tree_runs.h"
#include "filter/plan/planned_runs.h"

namespace sstfilter {

// One run's filters as a sum over its keys: those in tables with a
// filter, their bits, and the FP rates summed over every key (1 for a key
// without one).
struct RunFilters {
  double filtered_keys = 0;
  double bits = 0;
  double fp_sum = 0;
};

// The FP rate of `bits` per key in `run`'s encoding; 1 at 0 bits (none).
double FpOrNone(const PlannedRun& run, double bits);

// The run's filters as its tables hold them: the known tables' bits (none
// for those without a filter), the rest at the uniform setting.
RunFilters FiltersToday(const PlannedRun& run);

// The runs' blocks with each run's filters as `filters` says (index and
// data blocks as `shape` gives their entries): a run's filter blocks are
// those of its filtered keys, checked by their share of its Gets.
std::vector<RunBlocks> BlocksWithFilters(const std::vector<PlannedRun>& runs,
                                         const BlockShape& shape, const CacheSite& cache,
                                         const std::vector<RunFilters>& filters);

// The runs' blocks with the filters they hold today (FiltersToday).
std::vector<RunBlocks> BlocksToday(const std::vector<PlannedRun>& runs, const BlockShape& shape,
                                   const CacheSite& cache);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_PLAN_FILTERS_TODAY_H_
