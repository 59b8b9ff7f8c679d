#include "filter/plan/rebuild_gain.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <utility>

#include "filter/cache_model/cache_reads.h"
#include "filter/cache_model/spread_fit.h"
#include "filter/cache_model/traffic_popularity.h"
#include "filter/plan/filters_today.h"
#include "filter/plan/planned_runs.h"

namespace sstfilter {

double RangeOffPlanBits(double sampled) {
  if (sampled <= 0) return kRangeOffPlanBits;
  return std::clamp(kRangeBandBitsAtOneSample / std::sqrt(sampled), kOffPlanBits,
                    kRangeOffPlanBits);
}

bool OffPlan(const TableAgainstPlan& table) {
  if ((table.built_bits > 0) != (table.planned_bits > 0)) return true;
  const double overhead = kFilterOverheadBits / std::max(table.entries, 1.0);
  const double band = table.share > 0 ? RangeOffPlanBits(table.sampled) : kOffPlanBits;
  return std::abs(table.built_bits - table.planned_bits) > band + overhead;
}

bool OverPlan(const TableAgainstPlan& table) {
  if (table.built_bits > 0 && table.planned_bits <= 0) return true;
  const double overhead = kFilterOverheadBits / std::max(table.entries, 1.0);
  return table.built_bits - table.planned_bits > kOffPlanBits + overhead;
}

namespace {

// `filters` with `table` rebuilt to the plan.
RunFilters Rebuilt(const PlannedRun& run, RunFilters filters, const TableAgainstPlan& table) {
  const double keys = table.entries;
  filters.filtered_keys += keys * ((table.planned_bits > 0) - (table.built_bits > 0));
  filters.bits += keys * (table.planned_bits - table.built_bits);
  filters.fp_sum += keys * (FpOrNone(run, table.planned_bits) - FpOrNone(run, table.built_bits));
  return filters;
}

// The workloads a level's rewrites must save reads under: the one the plan
// is weighed at (PlanWorkload) and, where the DB's statistics sharpened its
// spread (spread_fit.h), the tables' sampled spread as it was. The fit
// moves with the filters the rewrites change: a level is rewritten only
// where both agree, so it is not rewritten back when the fit moves. None
// while the share of Gets found is assumed: a table rewritten for the plan
// made before anything is known would be rewritten again once the Gets
// tell.
std::vector<CacheWorkload> WorkloadsToWeigh(const FilterOptions& options, const TreeRuns& runs,
                                            const CacheSite& cache) {
  CachePlan base;
  std::vector<CacheWorkload> workloads{PlanWorkload(options, runs, cache, &base)};
  if (base.hit_share_from == HitShareFrom::kAssumed) return {};
  if (base.hot_width != kUnsharpened && runs.traffic != nullptr) {
    workloads.push_back(workloads.front());
    workloads.back().popularity = PopularityOf(*runs.traffic);
  }
  return workloads;
}

// A level's tables, off today's plan and on it.
struct LevelTables {
  std::vector<TableAgainstPlan> off_plan, on_plan;
};

// The tree's device reads per Get under each workload to weigh, with the
// runs' filters as given.
struct TreeReads {
  const std::vector<PlannedRun>& planned;
  const BlockShape& shape;
  const CacheSite& cache;
  const std::vector<CacheWorkload>& workloads;

  std::vector<double> Reads(const std::vector<RunFilters>& filters) const {
    const std::vector<RunBlocks> blocks = BlocksWithFilters(planned, shape, cache, filters);
    std::vector<double> reads;
    for (const CacheWorkload& workload : workloads) {
      reads.push_back(PredictReads(blocks, workload).total());
    }
    return reads;
  }
};

// `filters` with each of `tables` rebuilt to the plan.
std::vector<RunFilters> WithRebuilt(const std::vector<PlannedRun>& planned, size_t run,
                                    std::vector<RunFilters> filters,
                                    const std::vector<TableAgainstPlan>& tables) {
  for (const TableAgainstPlan& table : tables) {
    filters[run] = Rebuilt(planned[run], filters[run], table);
  }
  return filters;
}

double KeysOf(const std::vector<TableAgainstPlan>& tables) {
  double keys = 0;
  for (const TableAgainstPlan& table : tables) keys += table.entries;
  return keys;
}

// `today` with the level's on-plan tables built as its off-plan ones are
// (at their mean bits): the level as it was before the loop began moving
// it to the plan.
std::vector<RunFilters> BeforeTheMove(const std::vector<PlannedRun>& planned, size_t run,
                                      const std::vector<RunFilters>& today,
                                      const LevelTables& level) {
  double off_bits = 0;
  for (const TableAgainstPlan& table : level.off_plan) off_bits += table.built_bits * table.entries;
  off_bits /= std::max(KeysOf(level.off_plan), 1.0);
  std::vector<TableAgainstPlan> undone = level.on_plan;
  for (TableAgainstPlan& table : undone) table.planned_bits = off_bits;
  return WithRebuilt(planned, run, today, undone);
}

// What rewriting the level's off-plan tables saves per key, if it saves
// more than kRebuildMargin of today's reads under every workload: the
// least saving, shared by their keys. A level whose move has begun (`begun`: the loop
// rewrote some of its tables for the plan) is weighed by the move whole,
// the level before it (BeforeTheMove) against the level at the plan, its
// saving shared by all the level's keys: a level half moved is a state no
// plan chose, which the model weighs only as a blend of the two, so the
// rest goes on while the move would begin today.
std::optional<double> SavingPerKey(const TreeReads& tree, size_t run,
                                   const std::vector<RunFilters>& today,
                                   const std::vector<double>& reads_today, const LevelTables& level,
                                   bool begun) {
  const std::vector<double> at_plan =
      tree.Reads(WithRebuilt(tree.planned, run, today, level.off_plan));
  const std::vector<double> from =
      begun ? tree.Reads(BeforeTheMove(tree.planned, run, today, level)) : reads_today;
  double saving = INFINITY;
  for (size_t w = 0; w < at_plan.size(); ++w) {
    const double saved = from[w] - at_plan[w];
    if (!(saved > kRebuildMargin * reads_today[w])) return std::nullopt;
    saving = std::min(saving, saved);
  }
  const double keys = KeysOf(level.off_plan) + (begun ? KeysOf(level.on_plan) : 0);
  return keys > 0 ? saving / keys : 0;
}
}  // namespace

std::vector<TableRebuild> RebuildGains(const FilterOptions& options, const TreeRuns& runs,
                                       const CacheSite& cache,
                                       const std::vector<TableAgainstPlan>& tables,
                                       const std::map<int, bool>& under_way) {
  const std::vector<PlannedRun> planned = RunsOf(options, runs);
  std::map<int, size_t> run_of_level;  // Levels below L0: one run each.
  for (size_t i = 0; i < planned.size(); ++i) {
    if (planned[i].level > 0) run_of_level[planned[i].level] = i;
  }
  std::map<size_t, LevelTables> by_run;
  for (const TableAgainstPlan& table : tables) {
    const auto run = run_of_level.find(table.level);
    if (run == run_of_level.end()) continue;
    LevelTables& level = by_run[run->second];
    (OffPlan(table) ? level.off_plan : level.on_plan).push_back(table);
  }
  const bool any_off_plan = std::any_of(by_run.begin(), by_run.end(), [](const auto& level) {
    return !level.second.off_plan.empty();
  });
  if (!any_off_plan) return {};
  const std::vector<CacheWorkload> workloads = WorkloadsToWeigh(options, runs, cache);
  if (workloads.empty()) return {};
  const TreeReads tree{planned, runs.blocks, cache, workloads};
  std::vector<RunFilters> today;
  for (const PlannedRun& run : planned) today.push_back(FiltersToday(run));
  const std::vector<double> reads_today = tree.Reads(today);
  std::vector<TableRebuild> gains;
  for (const auto& [run, level] : by_run) {
    if (level.off_plan.empty()) continue;
    const auto move = under_way.find(planned[run].level);
    const bool begun =
        move != under_way.end() &&
        std::all_of(level.off_plan.begin(), level.off_plan.end(), [&](const TableAgainstPlan& t) {
          return (t.planned_bits < t.built_bits) == move->second;
        });
    const std::optional<double> per_key = SavingPerKey(tree, run, today, reads_today, level, begun);
    if (!per_key.has_value()) continue;
    for (const TableAgainstPlan& table : level.off_plan) {
      gains.push_back({table, *per_key * table.entries, 2 * table.file_bytes});
    }
  }
  return gains;
}

double RebuildBytesPerSecond(const FilterOptions& options) {
  if (!options.per_level.optimize_levels) return 0;
  return options.per_level.rebuild_mb_s.value_or(kDefaultRebuildMbPerSecond) * 1024 * 1024;
}

double BreakEvenGetsPerSecond(double saving, double cost_bytes) {
  if (saving <= 0) return 0;
  return cost_bytes / (saving * static_cast<double>(kPaybackHorizon.count()) * kSavedReadBytes);
}

std::vector<TableRebuild> RebuildsWorthIt(std::vector<TableRebuild> gains, double gets_per_second) {
  std::vector<TableRebuild> worth;
  for (TableRebuild& gain : gains) {
    if (gain.saving > 0 && gets_per_second > BreakEvenGetsPerSecond(gain.saving, gain.cost_bytes)) {
      worth.push_back(std::move(gain));
    }
  }
  std::stable_sort(worth.begin(), worth.end(), [](const TableRebuild& a, const TableRebuild& b) {
    return a.saving * b.cost_bytes > b.saving * a.cost_bytes;
  });
  return worth;
}

}  // namespace sstfilter
