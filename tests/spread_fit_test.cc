// The fit of how far each table's Gets are gathered
// (filter/cache_model/spread_fit.h): it finds the hot width whose model
// gives the filter misses asked for, and leaves the spread as it is where
// there is nothing to sharpen.
#include "filter/cache_model/spread_fit.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

// One run of a million keys in 50 tables: 10 bits a key in 4 KiB filter
// partitions, 100 index partitions, 28,000 data blocks.
std::vector<RunBlocks> Today() {
  RunBlocks run;
  run.keys = 1e6;
  run.filter_bytes = 1.25e6, run.filter_blocks = std::ceil(1.25e6 / 4096), run.fp_rate = 0.01;
  run.index_bytes = 100 * 4096.0, run.index_blocks = 100;
  run.data_bytes = 28000 * 4096.0, run.data_blocks = 28000;
  return {run};
}

// Absent Gets over the 50 tables, the i-th drawing in proportion to
// 1 / (i + 1), in a cache of a third of the filters.
CacheWorkload Workload() {
  std::vector<KeyPopularity::Slice> slices;
  for (int i = 0; i < 50; ++i) slices.push_back({1, 1.0 / (i + 1)});
  CacheWorkload workload{1.25e6 / 3, 0};
  workload.popularity = KeyPopularity(slices);
  return workload;
}

double FilterReads(const CacheWorkload& workload, double hot_width) {
  CacheWorkload sharpened = workload;
  sharpened.popularity = workload.popularity.Sharpened(hot_width);
  return PredictReads(Today(), sharpened).filter;
}

// A window of 10,000 Gets with `filter_reads` filter misses per Get and no
// table written.
MissWindow Measured(double filter_reads) { return {GetReads{filter_reads, 0, 0}, 10000, 0}; }

TEST(SpreadFitTest, FindsTheWidthThatGivesTheMisses) {
  const CacheWorkload workload = Workload();
  for (const double width : {0.3, 0.06, 0.01}) {
    const double misses = FilterReads(workload, width);
    ASSERT_LT(misses, FilterReads(workload, kUnsharpened)) << width;
    const double fit = FitHotWidth(Today(), workload, Measured(misses));
    EXPECT_NEAR(std::log(fit), std::log(width), 0.03) << width;
  }
}

// A window of 1,000 Gets in which compactions wrote a fifth of the filter
// bytes (61 of 306 partitions), each read into the cache as its table
// opened, a miss on top of the steady state's. Counted, the fit finds the
// width; ignored, it would take them for a blunter spread.
TEST(SpreadFitTest, NewPartitionsFirstMissesAreNotTakenForABlunterSpread) {
  const CacheWorkload steady = Workload();
  CacheWorkload churned = steady;
  churned.new_filter_share = 0.2, churned.window_gets = 1000;
  const double width = 0.06;
  churned.popularity = steady.popularity.Sharpened(width);
  const double misses = PredictReads(Today(), churned).filter;
  // A fifth of 306 partitions, each read once as its table opened.
  ASSERT_NEAR(misses, FilterReads(steady, width) + 0.2 * 306 / 1000, 1e-9);
  const MissWindow window{GetReads{misses, 0, 0}, 1000, 0.2 * Today()[0].filter_bytes};
  EXPECT_NEAR(std::log(FitHotWidth(Today(), steady, window)), std::log(width), 0.03);
  EXPECT_GT(FitHotWidth(Today(), steady, Measured(misses)), 1.2 * width);
}

TEST(SpreadFitTest, NothingToSharpenLeavesTheSpread) {
  const CacheWorkload workload = Workload();
  const double as_sampled = FilterReads(workload, kUnsharpened);
  EXPECT_EQ(FitHotWidth(Today(), workload, Measured(as_sampled * 1.5)), kUnsharpened);
  CacheWorkload uniform = workload;
  uniform.popularity = KeyPopularity();
  EXPECT_EQ(FitHotWidth(Today(), uniform, Measured(0)), kUnsharpened);
  std::vector<RunBlocks> unfiltered = Today();
  unfiltered[0].filter_blocks = unfiltered[0].filter_bytes = 0, unfiltered[0].fp_rate = 1;
  EXPECT_EQ(FitHotWidth(unfiltered, workload, Measured(0)), kUnsharpened);
  // No miss at all: as sharp as it goes.
  EXPECT_EQ(FitHotWidth(Today(), workload, Measured(0)), kSharpestHotWidth);
}

}  // namespace
}  // namespace sstfilter
