// The cache-aware plans of one DB's column family (cache_budget.h:
// PlanForCache over the steady tree as a table sees it), kept for the next
// tables of the same tree or of one near it: a compaction writes many
// tables from one tree the census handed it, a fill writes many flushes of
// trees that grow by a table each, and a plan costs about 100 ms. The
// census owns one per DB and column family (table/census/census_registry.h)
// for as long as it knows the DB; a caller without one plans every table.
#ifndef SSTFILTER_FILTER_PLAN_CACHE_PLAN_MEMO_H_
#define SSTFILTER_FILTER_PLAN_CACHE_PLAN_MEMO_H_

#include <memory>
#include <optional>

#include "filter/allocation/tree_runs.h"
#include "filter/filter_options.h"
#include "filter/plan/cache_budget.h"

namespace sstfilter {

// Thread-safe.
class CachePlanMemo {
 public:
  CachePlanMemo();
  ~CachePlanMemo();
  CachePlanMemo(const CachePlanMemo&) = delete;
  CachePlanMemo& operator=(const CachePlanMemo&) = delete;

  // PlanForCache(options, SteadyTree(*runs, level), cache), or the plan
  // made here for the same level, options and cache and the same tree
  // object or one near it (no level's entries more than 5% of the tree's
  // apart, the same share of Gets found within 1%, the same spread fit to
  // the DB's misses within 10%, the same inputs known: a fill into many
  // small tables asks at every flush, for a tree one table larger).
  CachePlan PlanFor(const FilterOptions& options, const std::shared_ptr<const TreeRuns>& runs,
                    int level, const CacheSite& cache);

  // The plan PlanFor last returned: what the latest table was sized under
  // (as the DB's LOG's last cache_aware line says). nullopt: none yet.
  std::optional<CachePlan> Last() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The plan for a table at `level`: memo's (nullptr: made for this table
// alone).
CachePlan PlanForTable(const FilterOptions& options, const std::shared_ptr<const TreeRuns>& runs,
                       int level, const CacheSite& cache, CachePlanMemo* memo);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_PLAN_CACHE_PLAN_MEMO_H_
