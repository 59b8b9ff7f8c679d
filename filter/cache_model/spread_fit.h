// How much sharper than the tables' sampled reads the Gets are, fit from
// the block cache's own misses.
//
// RocksDB samples reads per table (the census's traffic, tree_traffic.h),
// so a hot key range inside a table looks spread over the whole table
// (PopularityOf), and the cache model (cache_reads.h) then predicts more
// misses than the cache has: the hot ranges' blocks stay cached. The DB's
// statistics count the filter blocks the cache missed per Get; the fit
// finds how far each table's Gets must be gathered (KeyPopularity::
// Sharpened) for the model of the tree as it is to predict that count.
// Filter blocks only: compactions read data and index blocks through the
// cache too, but never filters. The tables flushes and compactions write
// during the window bring filter partitions that RocksDB reads into the
// cache as it opens them, a miss each however the Gets gather: the model
// counts them (the window's new filter bytes as a share of the tree's)
// beside the steady state's. A sampled spread is never sharper than the truth (a finer cut
// can only show more skew), so the fit only sharpens.
#ifndef SSTFILTER_FILTER_CACHE_MODEL_SPREAD_FIT_H_
#define SSTFILTER_FILTER_CACHE_MODEL_SPREAD_FIT_H_

#include <vector>

#include "filter/allocation/run_blocks.h"
#include "filter/cache_model/cache_reads.h"

namespace sstfilter {

// The hot width (KeyPopularity::Sharpened) that leaves the spread as it is.
inline constexpr double kUnsharpened = 0.5;
// The sharpest tried: 99.6% of a table's Gets on 0.4% of its keys.
inline constexpr double kSharpestHotWidth = 1.0 / 256;

// The hot width in [kSharpestHotWidth, kUnsharpened] at which the model
// of `today` (the runs' blocks with the filters they hold) under `steady`
// (the plan's workload: no churn), its popularity sharpened so and its
// churn the window's, predicts the filter blocks `window` read per Get, to
// within about 3% of the width. kUnsharpened where the popularity is
// uniform, no run has a filter, or the model already predicts no more
// than was measured.
double FitHotWidth(const std::vector<RunBlocks>& today, const CacheWorkload& steady,
                   const MissWindow& window);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_CACHE_MODEL_SPREAD_FIT_H_
