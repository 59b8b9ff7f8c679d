// The cache sweep (cache_sweep.h) as a PNG through gnuplot: device reads
// per Get (log scale) against the block cache's size (as a fraction of
// bloomfilter:10's filters, log scale), a curve per policy, a panel per
// kind of Gets. Where a sweep has many points, the table is hard to read.
#ifndef SSTFILTER_BENCH_DB_BENCH_CACHE_SWEEP_PLOT_H_
#define SSTFILTER_BENCH_DB_BENCH_CACHE_SWEEP_PLOT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "bench/db_bench/cache_sweep.h"

namespace sstfilter::db_bench {

// Writes <path_stem>.gp (data inlined) and <path_stem>.png.
absl::Status RenderCacheSweepPlot(const std::vector<CachePoint>& points,
                                  const std::string& title, const std::string& path_stem);

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_CACHE_SWEEP_PLOT_H_
