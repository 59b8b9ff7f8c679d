#include "filter/allocation/cache_plan_memo.h"

#include <array>
#include <mutex>

#include "filter/allocation/steady_tree.h"

namespace sstfilter {

namespace {

// A plan and what it was made for. The tree is held weakly: a live tree
// object is never another tree.
struct Entry {
  std::weak_ptr<const TreeRuns> runs;
  int level = 0;
  FilterOptions options;
  CacheSite cache;
  CachePlan plan;
};

bool SameCache(const CacheSite& a, const CacheSite& b) {
  return a.capacity_bytes == b.capacity_bytes && a.partitioned == b.partitioned &&
         a.partition_bytes == b.partition_bytes && a.high_pri_ratio == b.high_pri_ratio &&
         a.partitions_coupled == b.partitions_coupled;
}

// A few entries: compactions into different levels run at once.
constexpr size_t kEntries = 8;

}  // namespace

CachePlan PlanForTable(const FilterOptions& options, const std::shared_ptr<const TreeRuns>& runs,
                       int level, const CacheSite& cache) {
  static std::mutex mu;
  static std::array<Entry, kEntries> entries;
  static size_t next = 0;
  {
    std::lock_guard<std::mutex> lock(mu);
    for (const Entry& e : entries) {
      if (e.runs.lock() == runs && e.level == level && e.options == options &&
          SameCache(e.cache, cache)) {
        return e.plan;
      }
    }
  }
  CachePlan plan = PlanForCache(options, SteadyTree(*runs, level), cache);
  std::lock_guard<std::mutex> lock(mu);
  entries[next] = Entry{runs, level, options, cache, plan};
  next = (next + 1) % kEntries;
  return plan;
}

}  // namespace sstfilter
