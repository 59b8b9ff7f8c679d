// How much of an interval between two readings a table born in it lived
// through (table/census/born_share.h), on hand-made moments.
#include "table/census/born_share.h"

#include <chrono>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

using std::chrono::seconds;
const auto kIntervalOpens = std::chrono::steady_clock::time_point() + seconds(1000);

TEST(BornShareTest, ATableBornAfterTheIntervalsGetsLivedThroughNoneOfThem) {
  // 10 s between readings; the 90,000 Gets came in its first second, the
  // table was born at 7 s: by time it lived 30% of the interval.
  const GetsMoment last{kIntervalOpens, 10000}, now{kIntervalOpens + seconds(10), 100000};
  const auto shares = BornShares({{7, {kIntervalOpens + seconds(7), 100000}}}, last, now);
  EXPECT_DOUBLE_EQ(shares.at(7), 0);
}

TEST(BornShareTest, ATableLivedThroughTheGetsCountedSinceItsBirth) {
  const GetsMoment last{kIntervalOpens, 10000}, now{kIntervalOpens + seconds(10), 110000};
  const auto shares = BornShares({{7, {kIntervalOpens + seconds(9), 30000}},
                                  {8, {kIntervalOpens, 10000}},
                                  {9, {kIntervalOpens + seconds(10), 110000}}},
                                 last, now);
  EXPECT_DOUBLE_EQ(shares.at(7), 0.8) << "born after 20,000 of the 100,000 Gets";
  EXPECT_DOUBLE_EQ(shares.at(8), 1) << "born as the interval opened";
  EXPECT_DOUBLE_EQ(shares.at(9), 0) << "born as it closed";
}

TEST(BornShareTest, ByTimeWhereTheCountsDoNotSay) {
  const auto at7 = kIntervalOpens + seconds(7);
  const GetsMoment counted_last{kIntervalOpens, 500},
      counted_now{kIntervalOpens + seconds(10), 900};
  const GetsMoment uncounted_last{kIntervalOpens, std::nullopt};
  const GetsMoment uncounted_now{kIntervalOpens + seconds(10), std::nullopt};
  // Not counted at the birth, at the last reading, or now.
  EXPECT_DOUBLE_EQ(BornShares({{1, {at7, std::nullopt}}}, counted_last, counted_now).at(1), 0.3);
  EXPECT_DOUBLE_EQ(BornShares({{1, {at7, 600}}}, uncounted_last, counted_now).at(1), 0.3);
  EXPECT_DOUBLE_EQ(BornShares({{1, {at7, 600}}}, counted_last, uncounted_now).at(1), 0.3);
  // No Gets in the interval; the statistics reset before the birth, or after it.
  const GetsMoment idle_now{kIntervalOpens + seconds(10), 500};
  EXPECT_DOUBLE_EQ(BornShares({{1, {at7, 500}}}, counted_last, idle_now).at(1), 0.3);
  EXPECT_DOUBLE_EQ(BornShares({{1, {at7, 20}}}, counted_last, counted_now).at(1), 0.3);
  EXPECT_DOUBLE_EQ(BornShares({{1, {at7, 600}}}, counted_last, {counted_now.at, 30}).at(1), 0.3);
  // A birth the clock puts outside the interval is clamped to it.
  EXPECT_DOUBLE_EQ(
      BornShares({{1, {kIntervalOpens - seconds(5), std::nullopt}}}, uncounted_last, uncounted_now)
          .at(1),
      1);
}

}  // namespace
}  // namespace sstfilter
