#include "filter/plan/planned_runs.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "filter/allocation/fp_curve.h"
#include "filter/allocation/level_encoding.h"
#include "filter/plan/cache_budget.h"

namespace sstfilter {

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
      b.filter_blocks = cache.FilterBlocks(b.filter_bytes, tables, b.index_blocks);
    }
    b.reach = run.model.reach;
    *filter_bytes += b.filter_bytes;
    blocks.push_back(b);
  }
  return blocks;
}

double FpAtBits(const RunModel& run, double bits) {
  double low = std::log(1e-9), high = 0;  // log FP; bits_for_fp decreases in it.
  for (int i = 0; i < 40; ++i) {
    const double mid = (low + high) / 2;
    (run.bits_for_fp(std::exp(mid)) > bits ? low : high) = mid;
  }
  return std::exp((low + high) / 2);
}

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

}  // namespace sstfilter
