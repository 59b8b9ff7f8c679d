// A table's share of the Gets from its sampled counts
// (filter/allocation/share_of_gets.h): shrunk toward its uniform share
// while it has seen few, and the prior fitted to a level's spread.
#include "filter/allocation/share_of_gets.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

TEST(ShareOfGetsTest, ShrinksTowardTheUniformShareWhileFewAreSeen) {
  EXPECT_DOUBLE_EQ(ShareOfGets(TableSamples{0, 0}, 0.25), 0.25);
  // (samples + 2) / (exposure + 2 / uniform).
  EXPECT_DOUBLE_EQ(ShareOfGets(TableSamples{1000, 10000}, 0.5), 1002.0 / 10004.0);
  EXPECT_DOUBLE_EQ(ShareOfGets(TableSamples{0, 1}, 0.5), 2.0 / 5.0);
  EXPECT_NEAR(ShareOfGets(TableSamples{0, 1e6}, 0.5), 0, 1e-5);
}

TEST(FitSharePriorTest, HoldsTablesThatDifferBySamplingAloneToOneShare) {
  // Eight tables of uniform share 1/8 over 800 sampled Gets: 100 expected
  // each. Counts within Poisson noise (sd 10): no spread beyond sampling.
  const std::vector<double> uniform(8, 1.0 / 8);
  std::vector<TableSamples> even;
  for (double s : {95.0, 108.0, 92.0, 104.0, 99.0, 111.0, 90.0, 101.0}) {
    even.push_back(TableSamples{s, 800});
  }
  const SharePrior held = FitSharePrior(even, uniform);
  EXPECT_NEAR(held.ratio, 800.0 / 800, 1e-12);
  EXPECT_GT(held.samples, 1000) << "the spread is sampling noise";
  // One hot table, the rest cold: each keeps what it saw.
  std::vector<TableSamples> skewed(8, TableSamples{20, 800});
  skewed[0].samples = 660;
  const SharePrior free = FitSharePrior(skewed, uniform);
  EXPECT_LT(free.samples, 2);
  EXPECT_NEAR(ShareOfGets(skewed[0], 1.0 / 8, free), 660.0 / 800, 0.01);
  EXPECT_NEAR(ShareOfGets(skewed[1], 1.0 / 8, free), 20.0 / 800, 0.01);
  // Too few tables to fit: the default prior.
  skewed.resize(kMinPriorTables - 1);
  EXPECT_EQ(FitSharePrior(skewed, uniform).samples, SharePrior{}.samples);
}

// Forty tables of even share, 2.5 sampled Gets expected at each (about
// 100,000 Gets over a level): half the draws show more spread than Poisson
// noise has on average. Those draws, too, are held to one share: no table's
// share strays 10% from the rest's.
TEST(FitSharePriorTest, AChanceExcessOfFewSamplesIsNotTakenForASpread) {
  constexpr int kTables = 40, kDraws = 200;
  const std::vector<double> uniform(kTables, 1.0 / kTables);
  std::mt19937 rng(7);
  std::poisson_distribution<int> draw(2.5);
  int strayed = 0;
  for (int d = 0; d < kDraws; ++d) {
    std::vector<TableSamples> tables;
    for (int i = 0; i < kTables; ++i) tables.push_back(TableSamples{1.0 * draw(rng), 100});
    const SharePrior prior = FitSharePrior(tables, uniform);
    double low = 1, high = 0;
    for (const TableSamples& t : tables) {
      const double share = ShareOfGets(t, 1.0 / kTables, prior);
      low = std::min(low, share), high = std::max(high, share);
    }
    strayed += high > 1.1 * low;
  }
  EXPECT_LE(strayed, kDraws / 20) << "draws whose noise moved a table's share";
}

// A real spread among those forty tables (shares drawn from a Gamma of
// shape 1, 25 sampled Gets expected at each) is still seen.
TEST(FitSharePriorTest, ARealSpreadOfFewSamplesIsKept) {
  constexpr int kTables = 40;
  const std::vector<double> uniform(kTables, 1.0 / kTables);
  std::mt19937 rng(11);
  std::gamma_distribution<double> spread(1.0, 1.0);
  std::vector<TableSamples> tables;
  std::vector<double> truth;
  for (int i = 0; i < kTables; ++i) {
    truth.push_back(spread(rng));
    std::poisson_distribution<int> draw(25 * truth.back());
    tables.push_back(TableSamples{1.0 * draw(rng), 1000});
  }
  const SharePrior prior = FitSharePrior(tables, uniform);
  EXPECT_LT(prior.samples, 10) << "a spread far beyond sampling noise";
  const auto hottest = std::max_element(truth.begin(), truth.end()) - truth.begin();
  const auto coldest = std::min_element(truth.begin(), truth.end()) - truth.begin();
  EXPECT_GT(ShareOfGets(tables[hottest], 1.0 / kTables, prior),
            3 * ShareOfGets(tables[coldest], 1.0 / kTables, prior));
}

}  // namespace
}  // namespace sstfilter
