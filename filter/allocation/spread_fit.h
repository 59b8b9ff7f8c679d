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
// cache too, but never filters. A sampled spread is never sharper than
// the truth (a finer cut can only show more skew), so the fit only
// sharpens.
#ifndef SSTFILTER_FILTER_ALLOCATION_SPREAD_FIT_H_
#define SSTFILTER_FILTER_ALLOCATION_SPREAD_FIT_H_

#include <vector>

#include "filter/allocation/cache_reads.h"

namespace sstfilter {

// The hot width (KeyPopularity::Sharpened) that leaves the spread as it is.
inline constexpr double kUnsharpened = 0.5;
// The sharpest tried: 99.6% of a table's Gets on 0.4% of its keys.
inline constexpr double kSharpestHotWidth = 1.0 / 256;

// The hot width in [kSharpestHotWidth, kUnsharpened] at which the model
// of `today` (the runs' blocks with the filters they hold) under
// `workload`, its popularity sharpened so, predicts `measured_filter_reads`
// filter blocks read per Get, to within about 3% of the width.
// kUnsharpened where the popularity is uniform, no run has a filter, or
// the model already predicts no more than was measured.
double FitHotWidth(const std::vector<RunBlocks>& today, const CacheWorkload& workload,
                   double measured_filter_reads);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_SPREAD_FIT_H_
