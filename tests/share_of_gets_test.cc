// A table's share of the Gets from its sampled counts
// (filter/allocation/share_of_gets.h): shrunk toward its uniform share
// while it has seen few, and the prior fitted to a level's spread.
#include "filter/allocation/share_of_gets.h"

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

}  // namespace
}  // namespace sstfilter
