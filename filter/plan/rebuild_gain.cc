#include "filter/plan/rebuild_gain.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "filter/cache_model/cache_reads.h"
#include "filter/plan/planned_runs.h"

namespace sstfilter {

bool OffPlan(const TableAgainstPlan& table) {
  if ((table.built_bits > 0) != (table.planned_bits > 0)) return true;
  const double overhead = kFilterOverheadBits / std::max(table.entries, 1.0);
  return std::abs(table.built_bits - table.planned_bits) > kOffPlanBits + overhead;
}

namespace {

// One run's filters as a sum over its keys: those with a filter, their
// bits, and the FP rates summed over every key (1 for a key without one).
struct RunFilters {
  double filtered_keys = 0;
  double bits = 0;
  double fp_sum = 0;
};

// The FP rate of `bits` per key in `run` (1: none).
double FpOf(const PlannedRun& run, double bits) { return bits > 0 ? FpAtBits(run.model, bits) : 1; }

// The run's filters as its tables hold them: the known tables' bits (none
// for those without a filter), the rest at the uniform setting.
RunFilters FiltersToday(const PlannedRun& run) {
  const double fixed = static_cast<double>(run.census.fixed_keys);
  const double unfiltered = std::min(static_cast<double>(run.census.unfiltered_keys), fixed);
  const double fixed_filtered = fixed - unfiltered;
  const double rest = std::max(run.model.keys - fixed, 0.0);
  const double fixed_bits = static_cast<double>(run.census.fixed_filter_bits);
  RunFilters f;
  f.filtered_keys = fixed_filtered + rest;
  f.bits = fixed_bits + rest * run.model.uniform_bits;
  f.fp_sum = unfiltered + rest * FpOf(run, run.model.uniform_bits);
  if (fixed_filtered > 0) f.fp_sum += fixed_filtered * FpOf(run, fixed_bits / fixed_filtered);
  return f;
}

// `filters` with `table` rebuilt to the plan.
RunFilters Rebuilt(const PlannedRun& run, RunFilters filters, const TableAgainstPlan& table) {
  const double keys = table.entries;
  filters.filtered_keys += keys * ((table.planned_bits > 0) - (table.built_bits > 0));
  filters.bits += keys * (table.planned_bits - table.built_bits);
  filters.fp_sum += keys * (FpOf(run, table.planned_bits) - FpOf(run, table.built_bits));
  return filters;
}

// The runs' blocks with each run's filters as `filters` says.
std::vector<RunBlocks> BlocksOf(const std::vector<PlannedRun>& runs, const BlockShape& shape,
                                const CacheSite& cache, const std::vector<RunFilters>& filters) {
  std::vector<double> fp_rates;
  for (size_t i = 0; i < runs.size(); ++i) {
    fp_rates.push_back(std::clamp(filters[i].fp_sum / runs[i].model.keys, 0.0, 1.0));
  }
  double bytes = 0;
  std::vector<RunBlocks> blocks = BlocksAt(runs, shape, cache, fp_rates, &bytes);
  for (size_t i = 0; i < runs.size(); ++i) {
    RunBlocks& b = blocks[i];
    const double share = std::clamp(filters[i].filtered_keys / runs[i].model.keys, 0.0, 1.0);
    b.filter_bytes = share > 0 ? std::max(filters[i].bits, 0.0) / 8 : 0;
    b.filter_blocks = 0;
    if (b.filter_bytes <= 0) continue;
    const double tables = static_cast<double>(std::max<uint64_t>(runs[i].census.tables, 1));
    b.filter_blocks = std::max(1.0, tables * share);
    if (cache.partitioned) {
      b.filter_blocks =
          std::max(b.filter_blocks, std::ceil(b.filter_bytes / cache.partition_bytes));
      if (cache.partitions_coupled)
        b.filter_blocks = std::max(b.filter_blocks, b.index_blocks * share);
    }
  }
  return blocks;
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
  CachePlan base;
  const CacheWorkload workload = PlanWorkload(options, runs, cache, &base);
  std::vector<RunFilters> today;
  for (const PlannedRun& run : planned) today.push_back(FiltersToday(run));
  const double reads_today =
      PredictReads(BlocksOf(planned, runs.blocks, cache, today), workload).total();
  std::vector<TableRebuild> gains;
  for (const auto& [run, level_tables] : off_plan) {
    std::vector<RunFilters> changed = today;
    double keys = 0;
    for (const TableAgainstPlan& table : level_tables) {
      changed[run] = Rebuilt(planned[run], changed[run], table);
      keys += table.entries;
    }
    const double saving =
        reads_today -
        PredictReads(BlocksOf(planned, runs.blocks, cache, changed), workload).total();
    const bool begun = under_way.count(planned[run].level) > 0;
    if (saving <= (begun ? 0 : kRebuildMargin * reads_today)) continue;
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
