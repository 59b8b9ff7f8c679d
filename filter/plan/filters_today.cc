#include "filter/plan/filters_today.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "filter/allocation/fp_curve.h"
#include "filter/plan/cache_budget.h"

namespace sstfilter {

double FpOrNone(const PlannedRun& run, double bits) {
  return bits > 0 ? FpAtBits(run.model, bits) : 1;
}

RunFilters FiltersToday(const PlannedRun& run) {
  const double fixed = static_cast<double>(run.census.fixed_keys);
  const double unfiltered = std::min(static_cast<double>(run.census.unfiltered_keys), fixed);
  const double fixed_filtered = fixed - unfiltered;
  const double rest = std::max(run.model.keys - fixed, 0.0);
  const double fixed_bits = static_cast<double>(run.census.fixed_filter_bits);
  RunFilters f;
  f.filtered_keys = fixed_filtered + rest;
  f.bits = fixed_bits + rest * run.model.uniform_bits;
  f.fp_sum = unfiltered + rest * FpOrNone(run, run.model.uniform_bits);
  if (fixed_filtered > 0) f.fp_sum += fixed_filtered * FpOrNone(run, fixed_bits / fixed_filtered);
  return f;
}

std::vector<RunBlocks> BlocksWithFilters(const std::vector<PlannedRun>& runs,
                                         const BlockShape& shape, const CacheSite& cache,
                                         const std::vector<RunFilters>& filters) {
  std::vector<double> fp_rates;
  for (size_t i = 0; i < runs.size(); ++i) {
    // A sum that rounding cancels to 0 or below (bare tables rebuilt with
    // filters) is the least FP a model sizes, not one no filter meets.
    fp_rates.push_back(std::clamp(filters[i].fp_sum / runs[i].model.keys, kBitsCurveLeast, 1.0));
  }
  double bytes = 0;
  std::vector<RunBlocks> blocks = BlocksAt(runs, shape, cache, fp_rates, &bytes);
  for (size_t i = 0; i < runs.size(); ++i) {
    RunBlocks& b = blocks[i];
    const double share = std::clamp(filters[i].filtered_keys / runs[i].model.keys, 0.0, 1.0);
    b.filter_bytes = share > 0 ? std::max(filters[i].bits, 0.0) / 8 : 0;
    b.filter_blocks = 0;
    b.filtered_share = share;
    if (b.filter_bytes <= 0) continue;
    const double tables = static_cast<double>(std::max<uint64_t>(runs[i].census.tables, 1));
    b.filter_blocks =
        cache.FilterBlocks(b.filter_bytes, std::max(1.0, tables * share), b.index_blocks * share);
  }
  return blocks;
}

std::vector<RunBlocks> BlocksToday(const std::vector<PlannedRun>& runs, const BlockShape& shape,
                                   const CacheSite& cache) {
  std::vector<RunFilters> today;
  for (const PlannedRun& run : runs) today.push_back(FiltersToday(run));
  return BlocksWithFilters(runs, shape, cache, today);
}

}  // namespace sstfilter
