// The cache-aware plan for a table's level (cache_budget.h: PlanForCache
// over the steady tree as the table sees it), kept for the next tables of
// the same tree or of one near it: a compaction writes many tables from one
// tree the census handed it, a fill writes many flushes of trees that grow
// by a table each, and a plan costs about 100 ms.
#ifndef SSTFILTER_FILTER_ALLOCATION_CACHE_PLAN_MEMO_H_
#define SSTFILTER_FILTER_ALLOCATION_CACHE_PLAN_MEMO_H_

#include <memory>
#include <optional>
#include <string>

#include "filter/allocation/cache_budget.h"
#include "filter/allocation/tree_runs.h"
#include "filter/filter_options.h"

namespace sstfilter {

// PlanForCache(options, SteadyTree(*runs, level), cache), or the plan
// made for the same level, options and cache and the same tree object or
// one near it (no level's entries more than 5% of the tree's apart, the
// same share of Gets found within 1%, the same inputs known: a fill into
// many small tables asks at every flush, for a tree one table larger);
// kept as the last plan of the cache's site (CacheSite::db and
// column_family). Thread-safe.
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
