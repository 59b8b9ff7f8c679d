#include "filter/cache_model/spread_fit.h"

#include <algorithm>
#include <cmath>

namespace sstfilter {

namespace {

// Bisection steps over log(width): (log 128) / 2^8 < 3% of the width.
constexpr int kSteps = 8;

double FilterReadsAt(const std::vector<RunBlocks>& today, CacheWorkload workload,
                     double hot_width) {
  workload.popularity = workload.popularity.Sharpened(hot_width);
  return PredictReads(today, workload).filter;
}

}  // namespace

double FitHotWidth(const std::vector<RunBlocks>& today, const CacheWorkload& steady,
                   const MissWindow& window) {
  double filter_bytes = 0;
  for (const RunBlocks& run : today) filter_bytes += run.filter_blocks > 0 ? run.filter_bytes : 0;
  if (steady.popularity.uniform() || filter_bytes <= 0) return kUnsharpened;
  CacheWorkload workload = steady;
  workload.new_filter_share = window.new_filter_bytes / filter_bytes;
  workload.window_gets = window.gets;
  const double measured_filter_reads = window.reads.filter;
  if (FilterReadsAt(today, workload, kUnsharpened) <= measured_filter_reads) return kUnsharpened;
  if (FilterReadsAt(today, workload, kSharpestHotWidth) >= measured_filter_reads) {
    return kSharpestHotWidth;
  }
  // Sharper reads fewer: the width where the model meets the measure.
  double low = std::log(kSharpestHotWidth), high = std::log(kUnsharpened);
  for (int i = 0; i < kSteps; ++i) {
    const double mid = (low + high) / 2;
    (FilterReadsAt(today, workload, std::exp(mid)) < measured_filter_reads ? low : high) = mid;
  }
  return std::exp((low + high) / 2);
}

}  // namespace sstfilter
