#include "filter/plan/cache_plan_memo.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "filter/allocation/steady_tree.h"

namespace sstfilter {

// Not in an anonymous namespace: CachePlanMemo::State holds these.
namespace cache_plan_memo_internal {

// What of a tree a plan depends on most, compared between trees: each
// level's entries (L0's tables together), those whose filters are built
// (none in a tree with every run free), what the DB's statistics and
// sampled reads say, a spread fit given, a deepest level the host leaves
// unfiltered, L0 staying as built.
struct TreeShape {
  std::vector<double> level_keys;  // [0]: L0's tables.
  double keys = 0;
  double fixed_keys = 0;
  std::optional<double> hit_share;
  bool traffic_known = false;
  bool misses_known = false;
  std::optional<double> given_hot_width;
  // The spread's fit to the DB's misses (SpreadFitOf), where they are
  // known and no width is given.
  std::optional<double> fit_hot_width;
  bool deepest_unfiltered = false;
  bool l0_stays = false;
};

TreeShape ShapeOf(const TreeRuns& runs) {
  TreeShape shape;
  shape.level_keys.assign(std::max<size_t>(runs.levels.size(), 1), 0);
  for (const RunCensus& t : runs.l0_tables) shape.level_keys[0] += static_cast<double>(t.keys);
  for (size_t l = 1; l < runs.levels.size(); ++l) {
    shape.level_keys[l] = static_cast<double>(runs.levels[l].keys);
  }
  for (const double k : shape.level_keys) shape.keys += k;
  for (const RunCensus& t : runs.l0_tables) shape.fixed_keys += static_cast<double>(t.fixed_keys);
  for (const RunCensus& run : runs.levels) shape.fixed_keys += static_cast<double>(run.fixed_keys);
  shape.hit_share = runs.hit_share;
  shape.traffic_known = runs.traffic != nullptr;
  shape.misses_known = runs.observed_misses.has_value();
  shape.given_hot_width = runs.given_hot_width;
  shape.deepest_unfiltered = runs.deepest_unfiltered;
  shape.l0_stays = runs.targets.l0_stays;
  return shape;
}

// Whether a plan made for `made` serves `now`: no level's entries, nor the
// entries with filters built, moved by more than kNearShare of the tree's,
// the same share of Gets found (within kNearHitShare), the same spread fit
// given or fit to the DB's misses (within kNearHotWidth of it: the fit's
// own precision is 3%) and the same inputs known. A fill into many small tables
// asks for a plan at every flush, each of a tree one table larger; the
// plan of a tree a few percent off differs from its own by less than the
// model's error (cache_budget.h's tie margin).
constexpr double kNearShare = 0.05;
constexpr double kNearHitShare = 0.01;
constexpr double kNearHotWidth = 0.1;

bool NearWidth(const std::optional<double>& made, const std::optional<double>& now) {
  if (made.has_value() != now.has_value()) return false;
  return !made.has_value() || std::abs(*made - *now) <= kNearHotWidth * std::max(*made, *now);
}

bool Near(const TreeShape& made, const TreeShape& now) {
  if (made.level_keys.size() != now.level_keys.size() || made.traffic_known != now.traffic_known ||
      made.misses_known != now.misses_known || made.deepest_unfiltered != now.deepest_unfiltered ||
      made.l0_stays != now.l0_stays || made.hit_share.has_value() != now.hit_share.has_value()) {
    return false;
  }
  if (made.hit_share.has_value() && std::abs(*made.hit_share - *now.hit_share) > kNearHitShare) {
    return false;
  }
  if (!NearWidth(made.given_hot_width, now.given_hot_width)) return false;
  if (!NearWidth(made.fit_hot_width, now.fit_hot_width)) return false;
  const double allowed = kNearShare * std::max(made.keys, now.keys);
  if (std::abs(made.fixed_keys - now.fixed_keys) > allowed) return false;
  for (size_t l = 0; l < now.level_keys.size(); ++l) {
    if (std::abs(made.level_keys[l] - now.level_keys[l]) > allowed) return false;
  }
  return true;
}

// A plan and what it was made for. The tree is held weakly: a live tree
// object is never another tree.
struct Entry {
  std::weak_ptr<const TreeRuns> runs;
  TreeShape shape;
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

// Enough entries for every level's plans while compactions into different
// levels run at once.
constexpr size_t kEntries = 32;

}  // namespace cache_plan_memo_internal


struct CachePlanMemo::State {
  std::mutex mu;
  std::array<cache_plan_memo_internal::Entry, cache_plan_memo_internal::kEntries> entries;
  size_t next = 0;
  std::optional<CachePlan> last;
};

CachePlanMemo::CachePlanMemo() : state_(std::make_unique<State>()) {}
CachePlanMemo::~CachePlanMemo() = default;

std::optional<CachePlan> CachePlanMemo::Last() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->last;
}

CachePlan CachePlanMemo::PlanFor(const FilterOptions& options,
                                 const std::shared_ptr<const TreeRuns>& runs, int level,
                                 const CacheSite& cache) {
  // Names of this file's own, scoped to the function (a unity build puts
  // other files after this one).
  using cache_plan_memo_internal::Entry;
  using cache_plan_memo_internal::kEntries;
  using cache_plan_memo_internal::Near;
  using cache_plan_memo_internal::SameCache;
  using cache_plan_memo_internal::ShapeOf;
  using cache_plan_memo_internal::TreeShape;
  State& memo = *state_;
  auto same_plan_inputs = [&](const Entry& e) {
    return e.level == level && e.options == options && SameCache(e.cache, cache);
  };
  {
    // The plan of this tree object.
    std::lock_guard<std::mutex> lock(memo.mu);
    for (const Entry& e : memo.entries) {
      if (same_plan_inputs(e) && e.runs.lock() == runs) return *(memo.last = e.plan);
    }
  }
  TreeShape shape = ShapeOf(*runs);
  std::optional<TreeRuns> steady;
  // Where the spread is fit to the DB's misses, the fit now: a tree of the
  // same shape whose Gets' windows moved the fit is planned anew.
  if (shape.misses_known && !shape.given_hot_width.has_value()) {
    steady = SteadyTree(*runs, level);
    shape.fit_hot_width = SpreadFitOf(options, *steady, cache);
  }
  {
    // Else the plan of a tree near it.
    std::lock_guard<std::mutex> lock(memo.mu);
    for (const Entry& e : memo.entries) {
      if (same_plan_inputs(e) && Near(e.shape, shape)) return *(memo.last = e.plan);
    }
  }
  if (!steady.has_value()) steady = SteadyTree(*runs, level);
  // The fit just made, as given: the plan would fit the same width again.
  if (shape.fit_hot_width.has_value()) steady->given_hot_width = shape.fit_hot_width;
  CachePlan plan = PlanForCache(options, *steady, cache);
  std::lock_guard<std::mutex> lock(memo.mu);
  memo.entries[memo.next] = Entry{runs, std::move(shape), level, options, cache, plan};
  memo.next = (memo.next + 1) % kEntries;
  memo.last = plan;
  return plan;
}

CachePlan PlanForTable(const FilterOptions& options, const std::shared_ptr<const TreeRuns>& runs,
                       int level, const CacheSite& cache, CachePlanMemo* memo) {
  if (memo != nullptr) return memo->PlanFor(options, runs, level, cache);
  return PlanForCache(options, SteadyTree(*runs, level), cache);
}

}  // namespace sstfilter
