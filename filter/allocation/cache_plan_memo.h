// The cache-aware plan for a table's level (cache_budget.h: PlanForCache
// over the steady tree as the table sees it), kept for the next tables of
// the same tree: a compaction writes many tables from one tree the census
// handed it, and a plan costs milliseconds.
#ifndef SSTFILTER_FILTER_ALLOCATION_CACHE_PLAN_MEMO_H_
#define SSTFILTER_FILTER_ALLOCATION_CACHE_PLAN_MEMO_H_

#include <memory>

#include "filter/allocation/cache_budget.h"
#include "filter/allocation/tree_runs.h"
#include "filter/filter_options.h"

namespace sstfilter {

// PlanForCache(options, SteadyTree(*runs, level), cache), or the same plan
// made for the same tree object, level, options and cache. Thread-safe.
CachePlan PlanForTable(const FilterOptions& options, const std::shared_ptr<const TreeRuns>& runs,
                       int level, const CacheSite& cache);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_CACHE_PLAN_MEMO_H_
