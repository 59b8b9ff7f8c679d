#include "filter/allocation/cache_plan_memo.h"

#include <array>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

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

// The plan last chosen for each DB and column family (CacheSite::db,
// column_family). Forgotten all at once past kLastSites (DBs closed and
// opened again under new census keys).
using SiteKey = std::pair<const void*, std::string>;
constexpr size_t kLastSites = 256;

// The memo's state, behind one lock.
struct Memo {
  std::mutex mu;
  std::array<Entry, kEntries> entries;
  size_t next = 0;
  std::map<SiteKey, CachePlan> last;
};

Memo& TheMemo() {
  static Memo* memo = new Memo;  // Never destroyed: tables are built until exit.
  return *memo;
}

}  // namespace

void ForgetLastPlans(const void* db) {
  Memo& memo = TheMemo();
  std::lock_guard<std::mutex> lock(memo.mu);
  for (auto it = memo.last.begin(); it != memo.last.end();) {
    it = it->first.first == db ? memo.last.erase(it) : std::next(it);
  }
}

std::optional<CachePlan> LastPlan(const void* db, const std::string& column_family) {
  Memo& memo = TheMemo();
  std::lock_guard<std::mutex> lock(memo.mu);
  const auto it = memo.last.find(SiteKey{db, column_family});
  if (it == memo.last.end()) return std::nullopt;
  return it->second;
}

CachePlan PlanForTable(const FilterOptions& options, const std::shared_ptr<const TreeRuns>& runs,
                       int level, const CacheSite& cache) {
  Memo& memo = TheMemo();
  // Kept as the site's last plan, under the lock.
  auto keep_last = [&](const CachePlan& plan) {
    if (cache.db == nullptr) return;
    if (memo.last.size() >= kLastSites) memo.last.clear();
    memo.last[SiteKey{cache.db, cache.column_family}] = plan;
  };
  {
    std::lock_guard<std::mutex> lock(memo.mu);
    for (const Entry& e : memo.entries) {
      if (e.runs.lock() == runs && e.level == level && e.options == options &&
          SameCache(e.cache, cache)) {
        keep_last(e.plan);
        return e.plan;
      }
    }
  }
  CachePlan plan = PlanForCache(options, SteadyTree(*runs, level), cache);
  std::lock_guard<std::mutex> lock(memo.mu);
  memo.entries[memo.next] = Entry{runs, level, options, cache, plan};
  memo.next = (memo.next + 1) % kEntries;
  keep_last(plan);
  return plan;
}

}  // namespace sstfilter
