// The frontier (frontier.h) as a PNG through gnuplot: data-block reads per
// absent Get (log scale) against filter bytes per key, a curve per family.
#ifndef SSTFILTER_BENCH_DB_BENCH_FRONTIER_PLOT_H_
#define SSTFILTER_BENCH_DB_BENCH_FRONTIER_PLOT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "bench/db_bench/frontier.h"

namespace sstfilter::db_bench {

// Writes <path_stem>.gp (data inlined) and <path_stem>.png.
absl::Status RenderFrontierPlot(const std::vector<FrontierCurve>& curves,
                                const std::string& title, const std::string& path_stem);

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_FRONTIER_PLOT_H_
