// The share of Gets that find their key, from a DB's statistics
// (table/census/observed_hit_share.h): the tickers it sums, and the windows
// it takes the share over, on hand-worked counts.
#include "table/census/observed_hit_share.h"

#include <memory>
#include <optional>

#include "gtest/gtest.h"
#include "rocksdb/statistics.h"

namespace sstfilter {
namespace {

TEST(GetOutcomesTest, NoStatisticsNoCounts) {
  EXPECT_FALSE(GetOutcomesOf(nullptr).has_value());
}

// Reached: the memtables' misses; found: the hits at every level of the
// tables. The memtables' hits and the Gets' own count are neither.
TEST(GetOutcomesTest, SumsTheTablesHitsOverTheMemtablesMisses) {
  const std::shared_ptr<rocksdb::Statistics> stats = rocksdb::CreateDBStatistics();
  stats->recordTick(rocksdb::MEMTABLE_MISS, 1000);
  stats->recordTick(rocksdb::MEMTABLE_HIT, 400);
  stats->recordTick(rocksdb::NUMBER_KEYS_READ, 1400);
  stats->recordTick(rocksdb::GET_HIT_L0, 30);
  stats->recordTick(rocksdb::GET_HIT_L1, 70);
  stats->recordTick(rocksdb::GET_HIT_L2_AND_UP, 500);
  const std::optional<GetOutcomes> outcomes = GetOutcomesOf(stats.get());
  ASSERT_TRUE(outcomes.has_value());
  EXPECT_EQ(outcomes->reached, 1000u);
  EXPECT_EQ(outcomes->found, 600u);
}

TEST(HitShareWindowTest, NoShareUntilAWindowCloses) {
  HitShareWindow window(100);
  EXPECT_FALSE(window.Observe({0, 0}).has_value());
  EXPECT_FALSE(window.Observe({99, 99}).has_value());
  const std::optional<double> share = window.Observe({100, 25});
  ASSERT_TRUE(share.has_value());
  EXPECT_DOUBLE_EQ(*share, 0.25);
}

// The first window opens where the statistics began: a DB read before the
// census's first reading (its first flush) has its share at that reading.
TEST(HitShareWindowTest, TheFirstWindowOpensWhereTheStatisticsBegan) {
  HitShareWindow window(100);
  EXPECT_DOUBLE_EQ(window.Observe({5000, 1000}).value_or(-1), 0.2);
  EXPECT_DOUBLE_EQ(window.Observe({5200, 1150}).value_or(-1), 0.75);
}

// Each window opens where the last closed; a reading short of a window
// keeps the last share.
TEST(HitShareWindowTest, FollowsAWorkloadThatChanges) {
  HitShareWindow window(100);
  window.Observe({0, 0});
  EXPECT_DOUBLE_EQ(window.Observe({100, 100}).value_or(-1), 1.0);
  EXPECT_DOUBLE_EQ(window.Observe({150, 100}).value_or(-1), 1.0);
  EXPECT_DOUBLE_EQ(window.Observe({300, 100}).value_or(-1), 0.0);
  EXPECT_DOUBLE_EQ(window.Observe({400, 150}).value_or(-1), 0.5);
}

// Statistics reset (counts below the window's start): a new window opens
// there, the last share kept until it closes.
TEST(HitShareWindowTest, AResetOpensANewWindow) {
  HitShareWindow window(100);
  window.Observe({0, 0});
  EXPECT_DOUBLE_EQ(window.Observe({1000, 200}).value_or(-1), 0.2);
  EXPECT_DOUBLE_EQ(window.Observe({10, 10}).value_or(-1), 0.2);
  EXPECT_DOUBLE_EQ(window.Observe({110, 60}).value_or(-1), 0.5);
}

// A reopened DB's statistics start at zero: the share its last instance
// saw holds until the new instance's first window closes, which replaces
// it. A carry after that window changes nothing.
TEST(HitShareWindowTest, ACarriedShareHoldsUntilAWindowCloses) {
  HitShareWindow window(100);
  window.Carry(0.1);
  EXPECT_TRUE(window.carried());
  EXPECT_DOUBLE_EQ(window.Observe({0, 0}).value_or(-1), 0.1);
  EXPECT_DOUBLE_EQ(window.Observe({99, 99}).value_or(-1), 0.1);
  EXPECT_DOUBLE_EQ(window.Observe({100, 60}).value_or(-1), 0.6);
  EXPECT_FALSE(window.carried());
  window.Carry(0.1);
  EXPECT_DOUBLE_EQ(window.share().value_or(-1), 0.6);
  EXPECT_FALSE(window.carried());
}

// A window also counts the block cache's misses per Get that reached the
// tables, by kind of block, its Gets and the filter bytes written in it;
// a carried share has none.
TEST(HitShareWindowTest, AWindowCountsTheCachesMissesPerGet) {
  HitShareWindow window(100);
  window.Carry(0.5);
  EXPECT_FALSE(window.misses().has_value());
  window.Observe({200, 100, 50, 100, 300, 5000});
  ASSERT_TRUE(window.misses().has_value());
  EXPECT_DOUBLE_EQ(window.misses()->reads.filter, 0.25);
  EXPECT_DOUBLE_EQ(window.misses()->reads.index, 0.5);
  EXPECT_DOUBLE_EQ(window.misses()->reads.data, 1.5);
  EXPECT_DOUBLE_EQ(window.misses()->gets, 200);
  EXPECT_DOUBLE_EQ(window.misses()->new_filter_bytes, 5000);
  // The next window counts from where this one closed.
  window.Observe({500, 250, 80, 100, 300, 12000});
  EXPECT_DOUBLE_EQ(window.misses()->reads.filter, 0.1);
  EXPECT_DOUBLE_EQ(window.misses()->gets, 300);
  EXPECT_DOUBLE_EQ(window.misses()->new_filter_bytes, 7000);
}

// The tickers are read one at a time while Gets run: found may run ahead of
// reached within a window; the share stays at most 1.
TEST(HitShareWindowTest, AShareNeverPassesOne) {
  HitShareWindow window(100);
  window.Observe({0, 0});
  EXPECT_DOUBLE_EQ(window.Observe({100, 103}).value_or(-1), 1.0);
}

}  // namespace
}  // namespace sstfilter
