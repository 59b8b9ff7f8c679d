// The advisor's arithmetic (filter/allocation/filters_by_run.h, tree_projection.h):
// tables grouped into the runs a lookup checks, each run's reach, and what
// optimize_levels would give, against closed forms.
#include "filter/allocation/tree_projection.h"

#include <cmath>
#include <string>
#include <vector>

#include "filter/allocation/filters_by_run.h"
#include "filter/encodings.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

TableFilters Table(int level, std::string smallest, std::string largest, uint64_t keys,
                   double fp = 0.01) {
  TableFilters t;
  t.level = level;
  t.smallest = std::move(smallest);
  t.largest = std::move(largest);
  t.keys = keys;
  t.filter_bytes = keys * 10 / 8;
  t.fp_rate = fp;
  return t;
}

TEST(TreeRunsTest, EachL0TableARunEachLevelOne) {
  const std::vector<TreeRun> runs =
      GroupIntoRuns({Table(6, "a", "d", 400), Table(0, "a", "z", 10), Table(6, "e", "h", 400),
                     Table(0, "b", "y", 20), Table(5, "a", "h", 80)},
                    true);
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_EQ(runs[0].level, 0);
  EXPECT_EQ(runs[1].level, 0);
  EXPECT_EQ(runs[2].level, 5);
  EXPECT_EQ(runs[3].level, 6);
  EXPECT_EQ(runs[3].tables.size(), 2u);
  EXPECT_EQ(runs[3].keys(), 800u);
}

// As the census counts them: L0's tables built (their filters fixed, a
// table without one unfiltered), the levels' runs free (the planning step,
// AsBuilt, sets what their tables hold).
TEST(TreeRunsTest, TheCensusOfRunsHoldsL0AsBuilt) {
  TableFilters bare = Table(0, "c", "d", 30);
  bare.filter_bytes = 0;
  const TreeRuns census = CensusOf(
      GroupIntoRuns({Table(0, "a", "z", 16), bare, Table(6, "a", "h", 400)}, true));
  ASSERT_EQ(census.l0_tables.size(), 2u);
  EXPECT_EQ(census.l0_tables[0].fixed_keys, 16u);
  EXPECT_EQ(census.l0_tables[0].fixed_filter_bits, 160u);
  EXPECT_EQ(census.l0_tables[0].unfiltered_keys, 0u);
  EXPECT_EQ(census.l0_tables[1].fixed_keys, 30u);
  EXPECT_EQ(census.l0_tables[1].unfiltered_keys, 30u);
  ASSERT_EQ(census.levels.size(), 7u);
  EXPECT_EQ(census.levels[6].keys, 400u);
  EXPECT_EQ(census.levels[6].fixed_keys, 0u);
}

TEST(TreeRunsTest, ReachIsTheTreesShareUnderTheRunsRanges) {
  // L6's four tables of 100, 100, 100, 700 keys; L5 covers the second and
  // third; L4 nothing of L6; L0 all of L6. 1,070 keys in all.
  const std::vector<TreeRun> runs = GroupIntoRuns(
      {Table(6, "a", "b", 100), Table(6, "c", "d", 100), Table(6, "e", "f", 100),
       Table(6, "g", "h", 700), Table(5, "c", "e", 50), Table(4, "x", "y", 10),
       Table(0, "a", "h", 10)},
      true);
  ASSERT_EQ(runs.size(), 4u);
  // Each table's keys spread between its bounds ("a" to "h": seven steps).
  EXPECT_NEAR(runs[0].reach, 1060.0 / 1070, 1e-12);  // L0: all but L4's table.
  EXPECT_NEAR(runs[1].reach, 10.0 / 1070, 1e-12);    // L4: its own keys only.
  // L5 (c-e): its own, L6's c-d, and 2 of L0's 7 steps.
  EXPECT_NEAR(runs[2].reach, (50 + 100 + 10.0 * 2 / 7) / 1070, 1e-12);
  // L6: its own, half of L5 (c-d of c-e), 4 of L0's 7 steps.
  EXPECT_NEAR(runs[3].reach, (1000 + 25 + 10.0 * 4 / 7) / 1070, 1e-12);
  const std::vector<TreeRun> unordered = GroupIntoRuns(
      {Table(6, "a", "b", 100), Table(5, "x", "y", 10)}, false);
  EXPECT_DOUBLE_EQ(unordered[1].reach, 1.0);
}

// Levels holding different parts of the key space (a fill pushed down a
// part at a time): lookups fall in both parts, each level reached by its
// part's share, though the level above holds none of the bottom's keys.
TEST(TreeRunsTest, LevelsOverDisjointPartsEachReachTheirShare) {
  const std::vector<TreeRun> runs = GroupIntoRuns(
      {Table(6, "a", "f", 400), Table(6, "g", "m", 300), Table(5, "n", "s", 350),
       Table(5, "t", "z", 250)},
      true);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_DOUBLE_EQ(runs[0].reach, 600.0 / 1300);  // L5
  EXPECT_DOUBLE_EQ(runs[1].reach, 700.0 / 1300);  // L6
}

TEST(TreeRunsTest, FpIsKeyWeighted) {
  const std::vector<TreeRun> runs =
      GroupIntoRuns({Table(6, "a", "b", 100, 0.02), Table(6, "c", "d", 300, 0.01)}, true);
  EXPECT_DOUBLE_EQ(runs[0].fp_rate(), (100 * 0.02 + 300 * 0.01) / 400);
}

// A run today spending `bits` per key in cache_local, at that encoding's FP.
RunToday CacheLocalRun(double keys, double bits, double reach = 1) {
  RunToday r;
  r.keys = keys;
  r.filter_bits = keys * bits;
  r.fp_rate = EncodingInfoOf(EncodingId::kCacheLocal).expected_fp_rate(1 << 20, bits);
  r.reach = reach;
  r.encoding = EncodingId::kCacheLocal;
  return r;
}

TEST(TreeProjectionTest, ReadsTodayAreReachTimesFp) {
  std::vector<RunToday> runs = {CacheLocalRun(1e4, 10, 0.5), CacheLocalRun(1e6, 10)};
  runs[0].fp_rate = 0.02;
  runs[1].fp_rate = 0.01;
  EXPECT_DOUBLE_EQ(ProjectOptimizeLevels(runs).reads_today, 0.5 * 0.02 + 0.01);
}

TEST(TreeProjectionTest, OneRunGainsNothing) {
  const TreeProjection p = ProjectOptimizeLevels({CacheLocalRun(1e6, 10)});
  EXPECT_NEAR(p.reads_same_bytes / p.reads_today, 1.0, 0.02);
  ASSERT_TRUE(p.bytes_for_same_reads.has_value());
  EXPECT_NEAR(*p.bytes_for_same_reads, 1.0, 0.02);
}

// Runs of 10^3..10^6 keys at one setting. FP proportional to keys at the
// same memory (Monkey), for any filter whose bits are a - ln(p) / c:
// sum n_i ln p_i = sum n_i ln p, so p_i = mu n_i with
// ln mu = sum n_i (ln p - ln n_i) / N, and reads fall from 4 p to mu N.
TEST(TreeProjectionTest, GeometricTreeGainsWhatMonkeyPredicts) {
  std::vector<RunToday> runs;
  double total = 0, weighted_log = 0;
  for (double keys : {1e3, 1e4, 1e5, 1e6}) {
    runs.push_back(CacheLocalRun(keys, 10));
    total += keys;
    weighted_log += keys * std::log(keys);
  }
  const double p = runs[0].fp_rate;
  const double mu = std::exp(std::log(p) - weighted_log / total);
  const double predicted_gain = 4 * p / (mu * total);
  const TreeProjection projection = ProjectOptimizeLevels(runs);
  EXPECT_NEAR(projection.reads_today, 4 * p, 1e-12);
  const double gain = projection.reads_today / projection.reads_same_bytes;
  EXPECT_NEAR(gain, predicted_gain, 0.1 * predicted_gain) << "predicted " << predicted_gain;
  ASSERT_TRUE(projection.bytes_for_same_reads.has_value());
  EXPECT_LT(*projection.bytes_for_same_reads, 0.9);
  EXPECT_GT(*projection.bytes_for_same_reads, 0.5);
}

}  // namespace
}  // namespace sstfilter
