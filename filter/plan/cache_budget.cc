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

namespace sstfilter {

namespace {

// Budgets tried: the most the options allow, then each a half-octave
// below the last, down to 2^-12 of it.
constexpr int kBudgetSteps = 24;
constexpr double kBudgetStep = 0.7071067811865476;  // 2^-0.5
// Golden-section steps around the series' best: the bracket of two
// half-octave steps shrinks to 0.2% of a budget, within the models' error.
constexpr int kRefinements = 12;

// One run of the tree as both models see it.
struct PlannedRun {
  int level = 0;
  RunCensus census;
  RunModel model;
};

std::vector<PlannedRun> RunsOf(const FilterOptions& options, const TreeRuns& runs) {
  const int deepest = DeepestLevel(runs);
  std::vector<PlannedRun> planned;
  auto add = [&](const RunCensus& run, int level) {
    if (run.keys == 0) return;
    const double keys = static_cast<double>(run.keys);
    const double filter_keys = keys / static_cast<double>(std::max<uint64_t>(run.tables, 1));
    RunModel model = EncodingRunModel(EncodingForLevel(options, level, level == deepest), keys,
                                      options.bits_per_key, filter_keys, kPlanCurveNodes);
    model.reach = run.reach > 0 ? run.reach : 1.0;
    planned.push_back({level, run, std::move(model)});
  };
  for (const RunCensus& run : runs.l0_tables) add(run, 0);
  for (size_t level = 1; level < runs.levels.size(); ++level) {
    add(runs.levels[level], static_cast<int>(level));
  }
  return planned;
}

double MostBits(const FilterOptions& options, const std::vector<PlannedRun>& runs) {
  double bits = 0;
  for (const PlannedRun& run : runs) bits += run.model.keys * run.model.uniform_bits;
  if (options.per_level.budget_mb.has_value())
    bits = std::min(bits, *options.per_level.budget_mb * 8 * 1024 * 1024);
  return bits;
}

// The runs' blocks with their filters at `fp_rates`, and their filter bytes.
std::vector<RunBlocks> BlocksAt(const std::vector<PlannedRun>& runs, const BlockShape& shape,
                                const CacheSite& cache, const std::vector<double>& fp_rates,
                                double* filter_bytes) {
  std::vector<RunBlocks> blocks;
  *filter_bytes = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    const PlannedRun& run = runs[i];
    RunBlocks b;
    b.keys = run.model.keys;
    const double tables = static_cast<double>(std::max<uint64_t>(run.census.tables, 1));
    if (shape.known()) {
      const double per_entry = b.keys / shape.entries;
      b.data_bytes = shape.data_bytes * per_entry, b.data_blocks = shape.data_blocks * per_entry;
      b.index_bytes = shape.index_bytes * per_entry;
      b.index_blocks = shape.index_blocks * per_entry;
    }
    if (fp_rates[i] < 1) {  // 1: no filter.
      b.fp_rate = fp_rates[i];
      b.filter_bytes = b.keys * run.model.bits_for_fp(fp_rates[i]) / 8;
      b.filter_blocks = tables;
      if (cache.partitioned) {
        b.filter_blocks = std::max(tables, std::ceil(b.filter_bytes / cache.partition_bytes));
        if (cache.partitions_coupled) b.filter_blocks = std::max(b.filter_blocks, b.index_blocks);
      }
    }
    b.reach = run.model.reach;
    *filter_bytes += b.filter_bytes;
    blocks.push_back(b);
  }
  return blocks;
}

// The FP rate `run`'s encoding gives at `bits` per key.
double FpAtBits(const RunModel& run, double bits) {
  double low = std::log(1e-9), high = 0;  // log FP; bits_for_fp decreases in it.
  for (int i = 0; i < 40; ++i) {
    const double mid = (low + high) / 2;
    (run.bits_for_fp(std::exp(mid)) > bits ? low : high) = mid;
  }
  return std::exp((low + high) / 2);
}

// The runs' FP rates as their tables hold them: the bits of the tables
// whose filters are known, else the uniform setting's; 1 where they hold
// none.
std::vector<double> FpRatesToday(const std::vector<PlannedRun>& runs) {
  std::vector<double> fp_rates;
  for (const PlannedRun& run : runs) {
    const auto fixed = static_cast<double>(run.census.fixed_keys);
    const double bits = fixed > 0 ? static_cast<double>(run.census.fixed_filter_bits) / fixed
                                  : run.model.uniform_bits;
    fp_rates.push_back(bits > 0 ? FpAtBits(run.model, bits) : 1.0);
  }
  return fp_rates;
}

// The runs' FP rates at `budget` over the runs above `unfiltered_from`
// (1 for the rest: no filter).
std::vector<double> FpRatesAt(const std::vector<PlannedRun>& runs, int unfiltered_from,
                              double budget) {
  auto filtered = [&](const PlannedRun& run) {
    return run.level == 0 || run.level < unfiltered_from;
  };
  std::vector<RunModel> models;
  for (const PlannedRun& run : runs) {
    if (filtered(run)) models.push_back(run.model);
  }
  const std::vector<double> allocated = AllocateRunFpRates(models, budget);
  std::vector<double> fp_rates;
  size_t next = 0;
  for (const PlannedRun& run : runs) fp_rates.push_back(filtered(run) ? allocated[next++] : 1.0);
  return fp_rates;
}

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

namespace {

// What a search for the plan at one workload is over.
struct PlanSearch {
  const FilterOptions& options;
  const TreeRuns& runs;
  const CacheSite& cache;
  const std::vector<PlannedRun>& planned;
  const CachePlan& base;  // What every plan shares.
};

// The plan spending `budget` over the runs above `unfiltered_from`, and
// its reads under `workload`.
CachePlan PlanAt(const PlanSearch& search, const CacheWorkload& workload, int unfiltered_from,
                 double budget) {
  CachePlan plan = search.base;
  plan.budget_bits = budget, plan.unfiltered_from = unfiltered_from;
  plan.blocks = BlocksAt(search.planned, search.runs.blocks, search.cache,
                         FpRatesAt(search.planned, unfiltered_from, budget), &plan.filter_bytes);
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
// without filters would look free.
std::vector<int> UnfilteredChoices(const TreeRuns& runs) {
  const int deepest = DeepestLevel(runs);
  std::vector<int> choices;
  for (int unfiltered_from : {CachePlan::kAllFiltered, deepest, deepest - 1}) {
    if (unfiltered_from >= 1 &&
        (unfiltered_from == CachePlan::kAllFiltered || runs.blocks.known())) {
      choices.push_back(unfiltered_from);
    }
  }
  return choices;
}

// The plan of fewest reads at `unfiltered_from` for `workload`: the budget
// series, then golden-section search between the best one's neighbours (the
// reads are not smooth enough to trust one step).
CachePlan BestBudget(const PlanSearch& search, const CacheWorkload& workload, int unfiltered_from) {
  auto plan_at = [&](double budget) { return PlanAt(search, workload, unfiltered_from, budget); };
  const double most = BudgetAtStep(search, 0);
  int best_step = 0;
  CachePlan found = plan_at(most);
  for (int step = 1; step <= kBudgetSteps; ++step) {
    CachePlan plan = plan_at(BudgetAtStep(search, step));
    // Strictly fewer: of plans that read alike, the first (more filters).
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
  return found;
}

// The plan of fewest reads for `workload`, over the unfiltered levels tried.
CachePlan BestPlan(const PlanSearch& search, const CacheWorkload& workload) {
  std::vector<CachePlan> candidates;
  for (const int unfiltered_from : UnfilteredChoices(search.runs)) {
    candidates.push_back(BestBudget(search, workload, unfiltered_from));
  }
  return ChooseAmongPlans(std::move(candidates));
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

CachePlan PlanForCache(const FilterOptions& options, const TreeRuns& runs, const CacheSite& cache) {
  const std::vector<PlannedRun> planned = RunsOf(options, runs);
  CachePlan base;  // What every plan shares: the hit share, the Gets' spread.
  base.hit_share = HitShareFor(options.per_level.hit_share, runs.hit_share, runs.hit_share_carried,
                               &base.hit_share_from);
  if (planned.empty()) return base;
  CacheWorkload workload{cache.capacity_bytes, base.hit_share, cache.high_pri_ratio};
  if (runs.traffic != nullptr) workload.popularity = PopularityOf(*runs.traffic);
  base.spread_slices = workload.popularity.slices();
  if (runs.observed_misses.has_value() && runs.blocks.known()) {
    double bytes = 0;
    const std::vector<RunBlocks> today =
        BlocksAt(planned, runs.blocks, cache, FpRatesToday(planned), &bytes);
    base.hot_width = FitHotWidth(today, workload, *runs.observed_misses);
    workload.popularity = workload.popularity.Sharpened(base.hot_width);
  }
  const PlanSearch search{options, runs, cache, planned, base};
  return base.hit_share_from == HitShareFrom::kAssumed ? RobustPlan(search, workload)
                                                       : BestPlan(search, workload);
}

}  // namespace sstfilter
