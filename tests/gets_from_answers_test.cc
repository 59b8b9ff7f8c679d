// The Gets behind filter answers (filter/allocation/gets_from_answers.h),
// against Gets simulated through a tree: each Get's key found in a run
// chosen by the runs' entries, or in none; each filtered run above it
// queried as far as it reaches where the table there has a filter,
// answering "may match" at its FP rate, and a control key queried beside
// each query.
#include "filter/allocation/gets_from_answers.h"

#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

struct SimRun {
  uint64_t keys;
  double reach;
  double fp;            // The run's filters' FP rate.
  double filtered = 1;  // The share of its entries in tables with a filter.
};

TreeRuns RunsOf(const std::vector<SimRun>& l0, const std::vector<SimRun>& levels) {
  TreeRuns runs;
  const auto census = [](const SimRun& r) {
    RunCensus c;
    c.keys = c.fixed_keys = r.keys;
    c.unfiltered_keys = static_cast<uint64_t>(static_cast<double>(r.keys) * (1 - r.filtered));
    c.fixed_filter_bits = (r.keys - c.unfiltered_keys) * 10;
    c.reach = r.reach;
    return c;
  };
  for (const SimRun& r : l0) runs.l0_tables.push_back(census(r));
  runs.levels.emplace_back();
  for (const SimRun& r : levels) runs.levels.push_back(census(r));
  return runs;
}

// Simulates `gets` Gets of which `found_share` find their key.
AnswerTally Simulate(const std::vector<SimRun>& order, uint64_t gets, double found_share,
                     uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<double> weights;
  for (const SimRun& r : order) weights.push_back(static_cast<double>(r.keys));
  std::discrete_distribution<size_t> where(weights.begin(), weights.end());
  AnswerTally tally;
  const auto query = [&](const SimRun& r, bool positive) {
    const bool control = u(rng) < r.fp;
    tally.queries += 1;
    tally.positives += positive;
    tally.control_positives += control;
    tally.control_positives_of_positives += positive && control;
  };
  for (uint64_t g = 0; g < gets; ++g) {
    const bool found = u(rng) < found_share;
    const size_t holder = found ? where(rng) : order.size();
    for (size_t i = 0; i < order.size(); ++i) {
      const SimRun& r = order[i];
      const bool filtered = u(rng) < r.filtered;
      if (i == holder) {
        if (filtered) query(r, true);
        break;
      }
      if (u(rng) < r.reach && filtered) query(r, u(rng) < r.fp);
    }
  }
  return tally;
}

// Two L0 tables, four levels, the upper ones reaching part of the keys;
// FP rates up to 8% (cache_aware's deepest level).
const std::vector<SimRun> kL0 = {{2000, 0.9, 0.01}, {2000, 0.9, 0.01}};
const std::vector<SimRun> kLevels = {
    {8000, 0.6, 0.005}, {60000, 1, 0.01}, {500000, 1, 0.02}, {5000000, 1, 0.08}};

std::vector<SimRun> InOrder() {
  std::vector<SimRun> order = kL0;
  order.insert(order.end(), kLevels.begin(), kLevels.end());
  return order;
}

TEST(GetsFromAnswersTest, TellsTheShareFoundFromZeroToAll) {
  const TreeRuns runs = RunsOf(kL0, kLevels);
  constexpr uint64_t kGets = 200000;
  for (const double share : {0.0, 0.05, 0.3, 0.5, 0.9, 1.0}) {
    const GetsEstimate gets = GetsFromAnswers(runs, Simulate(InOrder(), kGets, share, 7));
    EXPECT_NEAR(gets.found / gets.reached, share, 0.01) << "share " << share;
    EXPECT_NEAR(gets.reached, static_cast<double>(kGets), 0.03 * kGets) << "share " << share;
  }
}

// Without the control keys' correction, absent Gets' false positives
// (here about 0.13 a Get) would pass for found keys.
TEST(GetsFromAnswersTest, FalsePositivesAreNotFoundKeys) {
  const TreeRuns runs = RunsOf(kL0, kLevels);
  AnswerTally tally = Simulate(InOrder(), 100000, 0.0, 11);
  EXPECT_GT(tally.positives, 0.1 * 100000);
  EXPECT_LT(GetsFromAnswers(runs, tally).found, 0.01 * 100000);
}

// A Get found in the unfiltered deepest level answers no query there: the
// keys found in the filtered runs above tell them, in proportion to the
// runs' entries. With no filtered run, nothing is told.
TEST(GetsFromAnswersTest, KeysFoundWhereNoFilterAnswersAreInferredFromTheRest) {
  std::vector<SimRun> levels = kLevels;
  levels.back().filtered = 0;
  std::vector<SimRun> order = kL0;
  order.insert(order.end(), levels.begin(), levels.end());
  for (const double share : {0.0, 0.5, 1.0}) {
    const GetsEstimate gets =
        GetsFromAnswers(RunsOf(kL0, levels), Simulate(order, 400000, share, 3));
    EXPECT_NEAR(gets.found / gets.reached, share, 0.03) << "share " << share;
    EXPECT_NEAR(gets.reached, 400000.0, 0.03 * 400000) << "share " << share;
  }
  std::vector<SimRun> none = levels;
  for (SimRun& r : none) r.filtered = 0;
  const GetsEstimate blind = GetsFromAnswers(RunsOf({}, none), {1000, 1000, 0, 0});
  EXPECT_EQ(blind.reached, 0);
}

// cache_aware's deepest level planned for half the Gets found: a fifth of
// its tables filtered, at an FP rate of 30%. Within 4%: the FP rate of the
// filters holding found keys is taken from all positives' control keys,
// the upper levels' false positives among them.
TEST(GetsFromAnswersTest, APartlyFilteredDeepestLevelAtAHighFpRate) {
  std::vector<SimRun> levels = kLevels;
  levels.back().filtered = 0.2, levels.back().fp = 0.3;
  std::vector<SimRun> order = kL0;
  order.insert(order.end(), levels.begin(), levels.end());
  for (const double share : {0.0, 0.5, 1.0}) {
    const GetsEstimate gets =
        GetsFromAnswers(RunsOf(kL0, levels), Simulate(order, 400000, share, 5));
    EXPECT_NEAR(gets.found / gets.reached, share, 0.04) << "share " << share;
    EXPECT_NEAR(gets.reached, 400000.0, 0.03 * 400000) << "share " << share;
  }
}

TEST(GetsFromAnswersTest, NoQueriesNoGets) {
  const GetsEstimate gets = GetsFromAnswers(RunsOf(kL0, kLevels), {});
  EXPECT_EQ(gets.reached, 0);
  EXPECT_EQ(gets.found, 0);
  // A tree not read yet counts as one run.
  const GetsEstimate one = GetsFromAnswers(TreeRuns(), {100, 60, 0, 0});
  EXPECT_DOUBLE_EQ(one.found, 60);
  EXPECT_DOUBLE_EQ(one.reached, 100);
}

}  // namespace
}  // namespace sstfilter
