#include "filter/plan/rebuild_gain.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "filter/cache_model/cache_reads.h"
#include "filter/cache_model/spread_fit.h"
#include "filter/cache_model/traffic_popularity.h"
#include "filter/plan/filters_today.h"
#include "filter/plan/planned_runs.h"

namespace sstfilter {

bool OffPlan(const TableAgainstPlan& table) {
  if ((table.built_bits > 0) != (table.planned_bits > 0)) return true;
  const double overhead = kFilterOverheadBits / std::max(table.entries, 1.0);
  return std::abs(table.built_bits - table.planned_bits) > kOffPlanBits + overhead;
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

}  // namespace

std::vector<TableRebuild> RebuildGains(const FilterOptions& options, const TreeRuns& runs,
                                       const CacheSite& cache,
                                       const std::vector<TableAgainstPlan>& tables,
                                       const std::set<int>& under_way) {
  const std::vector<PlannedRun> planned = RunsOf(options, runs);
  std::map<int, size_t> run_of_level;  // Levels below L0: one run each.
  for (size_t i = 0; i < planned.size(); ++i) {
    if (planned[i].level > 0) run_of_level[planned[i].level] = i;
  }
  std::map<size_t, std::vector<TableAgainstPlan>> off_plan;  // By run.
  for (const TableAgainstPlan& table : tables) {
    const auto run = run_of_level.find(table.level);
    if (run != run_of_level.end() && OffPlan(table)) off_plan[run->second].push_back(table);
  }
  if (off_plan.empty()) return {};
  const std::vector<CacheWorkload> workloads = WorkloadsToWeigh(options, runs, cache);
  if (workloads.empty()) return {};
  std::vector<RunFilters> today;
  for (const PlannedRun& run : planned) today.push_back(FiltersToday(run));
  const std::vector<RunBlocks> blocks_today = BlocksWithFilters(planned, runs.blocks, cache, today);
  std::vector<double> reads_today;
  for (const CacheWorkload& workload : workloads) {
    reads_today.push_back(PredictReads(blocks_today, workload).total());
  }
  std::vector<TableRebuild> gains;
  for (const auto& [run, level_tables] : off_plan) {
    std::vector<RunFilters> changed = today;
    double keys = 0;
    for (const TableAgainstPlan& table : level_tables) {
      changed[run] = Rebuilt(planned[run], changed[run], table);
      keys += table.entries;
    }
    const std::vector<RunBlocks> blocks = BlocksWithFilters(planned, runs.blocks, cache, changed);
    const bool begun = under_way.count(planned[run].level) > 0;
    double saving = INFINITY;
    bool enough = true;
    for (size_t w = 0; w < workloads.size(); ++w) {
      const double saved = reads_today[w] - PredictReads(blocks, workloads[w]).total();
      enough = enough && saved > (begun ? 0 : kRebuildMargin * reads_today[w]);
      saving = std::min(saving, saved);
    }
    if (!enough) continue;
    for (const TableAgainstPlan& table : level_tables) {
      gains.push_back({table, keys > 0 ? saving * table.entries / keys : 0, 2 * table.file_bytes});
    }
  }
  return gains;
}

double RebuildBytesPerSecond(const FilterOptions& options) {
  if (!options.per_level.optimize_levels || !options.per_level.cache_aware) return 0;
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
