// The cache-aware plan for a table's level (cache_budget.h: PlanForCache
// over the steady tree as the table sees it), kept for the next tables of
// the same tree: a compaction writes many tables from one tree the census
// handed it, and a plan costs milliseconds.
#ifndef SSTFILTER_FILTER_ALLOCATION_CACHE_PLAN_MEMO_H_
#define SSTFILTER_FILTER_ALLOCATION_CACHE_PLAN_MEMO_H_

#include <memory>
#include <optional>
#include <string>

#include "filter/allocation/cache_budget.h"
#include "filter/allocation/tree_runs.h"
#include "filter/filter_options.h"

namespace sstfilter {

// PlanForCache(options, SteadyTree(*runs, level), cache), or the same plan
// made for the same tree object, level, options and cache; kept as the
// last plan of the cache's site (CacheSite::db and column_family).
// Thread-safe.
CachePlan PlanForTable(const FilterOptions& options, const std::shared_ptr<const TreeRuns>& runs,
                       int level, const CacheSite& cache);

// The plan last made for the DB (census key `db`) and column family: what
// its latest table was sized under (as its LOG's last cache_aware line
// says). nullopt: none yet.
std::optional<CachePlan> LastPlan(const void* db, const std::string& column_family);

// Drops the last plans of the DB whose census key is `db` (a new DB object
// there: another DB, or the same one opened again).
void ForgetLastPlans(const void* db);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_CACHE_PLAN_MEMO_H_
