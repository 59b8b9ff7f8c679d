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
// column_family), held until a better one reads kPlanSwitchGain less.
// Forgotten all at once past kHeldSites (DBs closed and opened again
// under new census keys); a plan forgotten is only chosen afresh.
using SiteKey = std::pair<const void*, std::string>;
constexpr size_t kHeldSites = 256;

// The memo's state, behind one lock.
struct Memo {
  std::mutex mu;
  std::array<Entry, kEntries> entries;
  size_t next = 0;
  std::map<SiteKey, CachePlan> held;
};

Memo& TheMemo() {
  static Memo* memo = new Memo;  // Never destroyed: tables are built until exit.
  return *memo;
}

}  // namespace

void ForgetHeldPlans(const void* db) {
  Memo& memo = TheMemo();
  std::lock_guard<std::mutex> lock(memo.mu);
  for (auto it = memo.held.begin(); it != memo.held.end();) {
    it = it->first.first == db ? memo.held.erase(it) : std::next(it);
  }
}

std::optional<CachePlan> HeldPlan(const void* db, const std::string& column_family) {
  Memo& memo = TheMemo();
  std::lock_guard<std::mutex> lock(memo.mu);
  const auto it = memo.held.find(SiteKey{db, column_family});
  if (it == memo.held.end()) return std::nullopt;
  return it->second;
}

CachePlan PlanForTable(const FilterOptions& options, const std::shared_ptr<const TreeRuns>& runs,
                       int level, const CacheSite& cache) {
  Memo& memo = TheMemo();
  std::mutex& mu = memo.mu;
  auto& entries = memo.entries;
  size_t& next = memo.next;
  auto& held = memo.held;
  const SiteKey site{cache.db, cache.column_family};
  std::optional<CachePlan> last;
  {
    std::lock_guard<std::mutex> lock(mu);
    for (const Entry& e : entries) {
      if (e.runs.lock() == runs && e.level == level && e.options == options &&
          SameCache(e.cache, cache)) {
        return e.plan;
      }
    }
    const auto it = held.find(site);
    if (cache.db != nullptr && it != held.end()) last = it->second;
  }
  CachePlan plan =
      PlanForCache(options, SteadyTree(*runs, level), cache, last ? &*last : nullptr);
  std::lock_guard<std::mutex> lock(mu);
  entries[next] = Entry{runs, level, options, cache, plan};
  next = (next + 1) % kEntries;
  if (cache.db != nullptr) {
    if (held.size() >= kHeldSites) held.clear();
    held[site] = plan;
  }
  return plan;
}

}  // namespace sstfilter
