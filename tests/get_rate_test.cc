// The rate of Gets the rebuild loop pays rewrites back at
// (table/census/get_rate.h), on hand-made readings.
#include "table/census/get_rate.h"

#include <chrono>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
const auto kStart = std::chrono::steady_clock::time_point() + seconds(1000);

TEST(GetRateTest, SaidOverTwoSecondsOrSoonerOnceTenThousandGetsAreCounted) {
  GetReadings quiet;
  EXPECT_EQ(quiet.Add({kStart, 0}), 0);
  EXPECT_EQ(quiet.Add({kStart + seconds(1), 5000}), 0) << "1 s and 5,000 Gets: not yet";
  EXPECT_DOUBLE_EQ(quiet.Add({kStart + seconds(2), 10000}), 5000);

  GetReadings busy;
  EXPECT_EQ(busy.Add({kStart, 100}), 0);
  EXPECT_EQ(busy.Add({kStart + milliseconds(200), 50100}), 0) << "under 250 ms: not yet";
  EXPECT_DOUBLE_EQ(busy.Add({kStart + milliseconds(500), 100100}), 200000);
  GetReadings few;
  few.Add({kStart, 0});
  EXPECT_EQ(few.Add({kStart + milliseconds(1500), 9999}), 0) << "fewer than 10,000 Gets";
}

TEST(GetRateTest, TheRateIsOverTheLastMinuteAndZeroWhereTheCountWentBack) {
  GetReadings readings;
  readings.Add({kStart, 0});
  EXPECT_DOUBLE_EQ(readings.Add({kStart + seconds(30), 30000}), 1000);
  // The first reading is dropped once the next is a minute old.
  EXPECT_DOUBLE_EQ(readings.Add({kStart + seconds(90), 330000}), 5000);
  EXPECT_EQ(readings.Add({kStart + seconds(91), 10}), 0) << "the statistics were reset";
}

}  // namespace
}  // namespace sstfilter
