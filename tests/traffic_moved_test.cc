// Whether a window of a level's sampled Gets moved
// (filter/allocation/traffic_moved.h): on Poisson draws of tables' counts
// under shares that hold still, and under shares whose hot tables moved.
#include "filter/allocation/traffic_moved.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

// Zipfian shares at `theta` over `tables` tables, the hottest first.
std::vector<double> ZipfShares(int tables, double theta) {
  std::vector<double> shares;
  for (int i = 1; i <= tables; ++i) shares.push_back(std::pow(i, -theta));
  const double sum = std::accumulate(shares.begin(), shares.end(), 0.0);
  for (double& s : shares) s /= sum;
  return shares;
}

// Each table's Poisson draw of `gets` sampled Gets at `shares`.
std::vector<double> Draw(const std::vector<double>& shares, double gets, std::mt19937_64* rng) {
  std::vector<double> counts;
  for (const double s : shares) {
    std::poisson_distribution<int> draw(s * gets);
    counts.push_back(draw(*rng));
  }
  return counts;
}

std::vector<WindowCounts> Windows(const std::vector<double>& before,
                                  const std::vector<double>& window) {
  std::vector<WindowCounts> tables;
  for (size_t i = 0; i < before.size(); ++i) tables.push_back({before[i], window[i]});
  return tables;
}

// How many of `trials` windows of `window_gets` are told moved, before
// drawn at `before` shares and the window at `after`.
int MovesTold(const std::vector<double>& before, const std::vector<double>& after,
              double before_gets, double window_gets, int trials) {
  std::mt19937_64 rng(7);
  int moved = 0;
  for (int i = 0; i < trials; ++i) {
    moved += TrafficMoved(Windows(Draw(before, before_gets, &rng), Draw(after, window_gets, &rng)));
  }
  return moved;
}

// Shares that hold still are not told moved, whether they are even or
// skewed, and however sparse a window's cells (a hundred tables, a few
// samples each): a move told on noise throws away what was learned.
TEST(TrafficMovedTest, SharesThatHoldStillAreNotToldMoved) {
  for (const double theta : {0.0, 0.99, 1.2}) {
    for (const int tables : {8, 40, 100}) {
      const std::vector<double> shares = ZipfShares(tables, theta);
      for (const double window : {64.0, 256.0, 2048.0}) {
        EXPECT_EQ(MovesTold(shares, shares, 2048, window, 400), 0)
            << "theta " << theta << ", " << tables << " tables, window " << window;
      }
    }
  }
}

// The hot tables moved (the zipfian shares given to other tables, as the
// skewed shapes move their hot ranges): told at nearly every window of
// 256 sampled Gets, and at every one of 1024.
TEST(TrafficMovedTest, HotTablesThatMovedAreToldMoved) {
  for (const double theta : {0.99, 1.2}) {
    for (const int tables : {40, 100}) {
      const std::vector<double> before = ZipfShares(tables, theta);
      std::vector<double> after = before;
      std::mt19937_64 rng(11);
      std::shuffle(after.begin(), after.end(), rng);
      EXPECT_GE(MovesTold(before, after, 2048, 256, 200), 190)
          << "theta " << theta << ", " << tables << " tables";
      EXPECT_EQ(MovesTold(before, after, 2048, 1024, 200), 200)
          << "theta " << theta << ", " << tables << " tables";
    }
  }
}

// Too few samples on either side, or one cell: nothing is told.
TEST(TrafficMovedTest, FewSamplesTellNothing) {
  EXPECT_FALSE(TrafficMoved({{60, 0}, {0, 30}}));
  EXPECT_FALSE(TrafficMoved({{2000, 0}, {0, 63}}));
  EXPECT_TRUE(TrafficMoved({{2000, 0}, {0, 64}}));
  EXPECT_FALSE(TrafficMoved({{2000, 100}}));
  EXPECT_FALSE(TrafficMoved({}));
}

}  // namespace
}  // namespace sstfilter
