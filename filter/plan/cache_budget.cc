#include "filter/plan/cache_budget.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "filter/allocation/fp_curve.h"
#include "filter/allocation/level_encoding.h"
#include "filter/allocation/run_allocation.h"
#include "filter/allocation/tree_traffic.h"
#include "filter/cache_model/traffic_popularity.h"
#include "filter/plan/filters_today.h"
#include "filter/plan/planned_runs.h"

namespace sstfilter {

namespace {

// Budgets tried: the most the options allow, then each a half-octave
// below the last, down to 2^-12 of it.
constexpr int kBudgetSteps = 24;
constexpr double kBudgetStep = 0.7071067811865476;  // 2^-0.5
// Golden-section steps around the series' best: the bracket of two
// half-octave steps shrinks to 0.2% of a budget, within the models' error.
constexpr int kRefinements = 12;
// From this share of Gets that find their key, most do (MostFiltersAmongTies).
constexpr double kMostFound = 0.5;

}  // namespace

double HitShareFor(std::optional<double> stated, std::optional<double> observed, bool carried,
                   HitShareFrom* from) {
  if (stated.has_value()) {
    *from = HitShareFrom::kStated;
    return *stated;
  }
  if (observed.has_value()) {
    *from = carried ? HitShareFrom::kCarried : HitShareFrom::kObserved;
    return *observed;
  }
  *from = HitShareFrom::kAssumed;
  return kAssumedHitShare;
}

CachePlan ChooseAmongPlans(std::vector<CachePlan> plans) {
  double fewest = std::numeric_limits<double>::infinity();
  for (const CachePlan& plan : plans) fewest = std::min(fewest, plan.reads.total());
  size_t chosen = 0;
  bool found = false;
  const bool negligible = fewest < kNegligibleReads;
  for (size_t i = 0; i < plans.size(); ++i) {
    const double reads = plans[i].reads.total();
    if (negligible && reads < kNegligibleReads) return std::move(plans[i]);
    if (negligible || reads > fewest * (1 + kPlanReadsTie)) continue;
    if (!found || plans[i].filter_bytes < plans[chosen].filter_bytes) chosen = i, found = true;
  }
  return std::move(plans[chosen]);
}

CachePlan MostFiltersAmongTies(std::vector<CachePlan> tried, CachePlan fewest) {
  const double tie = fewest.reads.total() * (1 + kPlanReadsTie);
  for (CachePlan& plan : tried) {
    if (plan.reads.total() <= tie && plan.budget_bits > fewest.budget_bits) {
      fewest = std::move(plan);
    }
  }
  return fewest;
}

namespace {

// The runs a plan sizes and those it takes as they are: where L0's tables
// stay (LevelTargets::l0_stays: nothing compacts them, and the rebuild
// loop leaves L0 alone), L0 holds what it was built with and the levels
// below share the budget less that, as TableFpRuleFor plans their tables.
struct PlanRuns {
  std::vector<PlannedRun> sized;  // The levels, and L0 where it does not stay.
  std::vector<RunBlocks> held;    // L0's blocks as built, where it stays.
  double held_bits = 0;
  double held_bytes = 0;
};

PlanRuns SplitForPlan(const std::vector<PlannedRun>& planned, const TreeRuns& runs,
                      const CacheSite& cache) {
  PlanRuns split;
  if (!runs.targets.l0_stays) {
    split.sized = planned;
    return split;
  }
  std::vector<PlannedRun> l0;
  for (const PlannedRun& run : planned) (run.level == 0 ? l0 : split.sized).push_back(run);
  std::vector<RunFilters> today;
  for (const PlannedRun& run : l0) {
    today.push_back(FiltersToday(run));
    split.held_bits += today.back().bits;
  }
  split.held = BlocksWithFilters(l0, runs.blocks, cache, today);
  for (const RunBlocks& b : split.held) split.held_bytes += b.filter_bytes;
  return split;
}

// What a search for the plan at one workload is over.
struct PlanSearch {
  const FilterOptions& options;
  const TreeRuns& runs;
  const CacheSite& cache;
  const std::vector<PlannedRun>& planned;  // Every run, L0's first (RunsOf).
  const PlanRuns& split;
  const CachePlan& base;  // What every plan shares.
};

// The plan spending `budget` over the runs above `unfiltered_from`, and
// its reads under `workload`. Its blocks are in the order of `planned`
// (L0's first).
CachePlan PlanAt(const PlanSearch& search, const CacheWorkload& workload, int unfiltered_from,
                 double budget) {
  CachePlan plan = search.base;
  plan.budget_bits = budget, plan.unfiltered_from = unfiltered_from;
  const PlanRuns& split = search.split;
  const double sized_budget = std::max(budget - split.held_bits, 0.0);
  const std::vector<RunBlocks> sized =
      BlocksAt(split.sized, search.runs.blocks, search.cache,
               FpRatesAt(split.sized, unfiltered_from, sized_budget), &plan.filter_bytes);
  plan.filter_bytes += split.held_bytes;
  plan.blocks = split.held;
  plan.blocks.insert(plan.blocks.end(), sized.begin(), sized.end());
  plan.reads = PredictReads(plan.blocks, workload);
  return plan;
}

// The budgets of the series: the most the options allow, then each a
// half-octave below the last.
double BudgetAtStep(const PlanSearch& search, int step) {
  return MostBits(search.options, search.planned) * std::pow(kBudgetStep, step);
}

// The unfiltered levels a plan may have: none, the deepest, the two
// deepest. Without the tables' index and data blocks known, a level
// without filters would look free. Where the host writes the deepest
// level without filters (TreeRuns::deepest_unfiltered), every plan leaves
// it so.
std::vector<int> UnfilteredChoices(const TreeRuns& runs) {
  const int deepest = DeepestLevel(runs);
  if (runs.deepest_unfiltered && deepest >= 1) {
    if (deepest >= 2 && runs.blocks.known()) return {deepest, deepest - 1};
    return {deepest};
  }
  std::vector<int> choices;
  for (int unfiltered_from : {CachePlan::kAllFiltered, deepest, deepest - 1}) {
    if (unfiltered_from >= 1 &&
        (unfiltered_from == CachePlan::kAllFiltered || runs.blocks.known())) {
      choices.push_back(unfiltered_from);
    }
  }
  return choices;
}

// One unfiltered level's search: the plan of fewest reads, and every plan
// it tried (where they are kept).
struct BudgetSearch {
  CachePlan fewest;
  std::vector<CachePlan> tried;
};

// The plan of fewest reads at `unfiltered_from` for `workload`: the budget
// series, then golden-section search between the best one's neighbours (the
// reads are not smooth enough to trust one step). With `keep_tried`, every
// plan it evaluated too.
BudgetSearch BestBudget(const PlanSearch& search, const CacheWorkload& workload,
                        int unfiltered_from, bool keep_tried) {
  BudgetSearch result;
  auto plan_at = [&](double budget) {
    CachePlan plan = PlanAt(search, workload, unfiltered_from, budget);
    if (keep_tried) result.tried.push_back(plan);
    return plan;
  };
  CachePlan& found = result.fewest;
  const double most = BudgetAtStep(search, 0);
  int best_step = 0;
  found = plan_at(most);
  for (int step = 1; step <= kBudgetSteps; ++step) {
    CachePlan plan = plan_at(BudgetAtStep(search, step));
    // Strictly fewer (beyond rounding): of equal reads, the first (more filters).
    if (plan.reads.total() < found.reads.total() * (1 - 1e-9)) {
      found = std::move(plan), best_step = step;
    }
  }
  double low = std::log(most) + std::log(kBudgetStep) * std::min(best_step + 1, kBudgetSteps);
  double high = std::log(most) + std::log(kBudgetStep) * std::max(best_step - 1, 0);
  constexpr double kGolden = 0.6180339887498949;
  // Each step keeps one point of the last and evaluates one new one.
  double a = high - kGolden * (high - low), b = low + kGolden * (high - low);
  CachePlan at_a = plan_at(std::exp(a)), at_b = plan_at(std::exp(b));
  auto keep_fewer = [&found](const CachePlan& plan) {
    if (plan.reads.total() < found.reads.total()) found = plan;
  };
  keep_fewer(at_a);
  keep_fewer(at_b);
  for (int i = 0; i < kRefinements && high - low > 1e-6; ++i) {
    if (at_a.reads.total() < at_b.reads.total()) {
      high = b, b = a, at_b = std::move(at_a);
      a = high - kGolden * (high - low);
      at_a = plan_at(std::exp(a));
      keep_fewer(at_a);
    } else {
      low = a, a = b, at_a = std::move(at_b);
      b = low + kGolden * (high - low);
      at_b = plan_at(std::exp(b));
      keep_fewer(at_b);
    }
  }
  return result;
}

// The plan for `workload` over the unfiltered levels tried: each level's
// fewest reads, the level chosen among them (ChooseAmongPlans); then,
// where most Gets find no key, of that level's budgets that read alike,
// the one of most filters (MostFiltersAmongTies).
CachePlan BestPlan(const PlanSearch& search, const CacheWorkload& workload) {
  const bool most_absent = workload.hit_share < kMostFound;
  std::vector<BudgetSearch> levels;
  std::vector<CachePlan> fewest;
  for (const int unfiltered_from : UnfilteredChoices(search.runs)) {
    levels.push_back(BestBudget(search, workload, unfiltered_from, most_absent));
    fewest.push_back(levels.back().fewest);
  }
  CachePlan chosen = ChooseAmongPlans(std::move(fewest));
  if (!most_absent) return chosen;
  for (BudgetSearch& level : levels) {
    if (level.fewest.unfiltered_from == chosen.unfiltered_from) {
      return MostFiltersAmongTies(std::move(level.tried), std::move(chosen));
    }
  }
  return chosen;
}

// Of the plans of every budget of the series at each unfiltered level, the
// one whose reads at its worst share of kRobustHitShares are the least
// multiple of that share's fewest (over the same plans); of those within
// kPlanReadsTie of it, the one with the fewest filter bytes. A plan's
// blocks do not depend on the share: each is laid out once.
CachePlan RobustPlan(const PlanSearch& search, CacheWorkload workload) {
  const double assumed = workload.hit_share;
  std::vector<CachePlan> candidates;
  for (const int unfiltered_from : UnfilteredChoices(search.runs)) {
    for (int step = 0; step <= kBudgetSteps; ++step) {
      candidates.push_back(PlanAt(search, workload, unfiltered_from, BudgetAtStep(search, step)));
    }
  }
  std::vector<std::vector<double>> reads(candidates.size());
  std::vector<double> fewest;
  for (const double share : kRobustHitShares) {
    workload.hit_share = share;
    double least = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < candidates.size(); ++i) {
      // PlanAt predicted each candidate's reads at the assumed share already.
      const double predicted = share == assumed
                                   ? candidates[i].reads.total()
                                   : PredictReads(candidates[i].blocks, workload).total();
      reads[i].push_back(std::max(predicted, kNegligibleReads));
      least = std::min(least, reads[i].back());
    }
    fewest.push_back(least);
  }
  workload.hit_share = assumed;
  // Where every share's best reads next to nothing (the cache holds the
  // tree), the filters save what the model does not count: the plan is the
  // one for the assumed share, as ChooseAmongPlans picks it.
  if (*std::max_element(fewest.begin(), fewest.end()) <= kNegligibleReads) {
    return BestPlan(search, workload);
  }
  std::vector<double> worst(candidates.size(), 0);
  for (size_t i = 0; i < candidates.size(); ++i) {
    for (size_t j = 0; j < fewest.size(); ++j)
      worst[i] = std::max(worst[i], reads[i][j] / fewest[j]);
  }
  const double least = *std::min_element(worst.begin(), worst.end());
  size_t chosen = candidates.size();
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (worst[i] > least * (1 + kPlanReadsTie)) continue;
    if (chosen == candidates.size() ||
        candidates[i].filter_bytes < candidates[chosen].filter_bytes) {
      chosen = i;
    }
  }
  CachePlan plan = std::move(candidates[chosen]);  // Its reads: at the assumed share.
  plan.robust_worst = worst[chosen];
  return plan;
}

}  // namespace

CacheWorkload PlanWorkload(const FilterOptions& options, const TreeRuns& runs,
                           const CacheSite& cache, CachePlan* base) {
  *base = CachePlan();
  base->hit_share = HitShareFor(options.per_level.hit_share, runs.hit_share, runs.hit_share_carried,
                                &base->hit_share_from);
  CacheWorkload workload{cache.capacity_bytes, base->hit_share, cache.high_pri_ratio};
  const std::vector<PlannedRun> planned = RunsOf(options, runs);
  if (planned.empty()) return workload;
  if (runs.traffic != nullptr) workload.popularity = PopularityOf(*runs.traffic);
  base->spread_slices = workload.popularity.slices();
  if (runs.given_hot_width.has_value()) {
    base->hot_width = *runs.given_hot_width;
  } else if (runs.observed_misses.has_value() && runs.blocks.known()) {
    const std::vector<RunBlocks> today = BlocksToday(planned, runs.blocks, cache);
    base->hot_width = FitHotWidth(today, workload, *runs.observed_misses);
  }
  workload.popularity = workload.popularity.Sharpened(base->hot_width);
  return workload;
}

double SpreadFitOf(const FilterOptions& options, const TreeRuns& runs, const CacheSite& cache) {
  CachePlan base;
  PlanWorkload(options, runs, cache, &base);
  return base.hot_width;
}

CachePlan PlanForCache(const FilterOptions& options, const TreeRuns& runs, const CacheSite& cache) {
  CachePlan base;  // What every plan shares: the hit share, the Gets' spread.
  const CacheWorkload workload = PlanWorkload(options, runs, cache, &base);
  const std::vector<PlannedRun> planned = RunsOf(options, runs);
  if (planned.empty()) return base;
  const PlanRuns split = SplitForPlan(planned, runs, cache);
  const PlanSearch search{options, runs, cache, planned, split, base};
  return base.hit_share_from == HitShareFrom::kAssumed ? RobustPlan(search, workload)
                                                       : BestPlan(search, workload);
}

}  // namespace sstfilter
