#include "filter/plan/rebuild_queue.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

using Clock = RebuildQueue::Clock;

std::vector<TableRebuild> Tables(std::vector<uint64_t> numbers) {
  std::vector<TableRebuild> tables;
  for (const uint64_t n : numbers) {
    TableRebuild t;
    t.table.number = n;
    tables.push_back(t);
  }
  return tables;
}

TEST(RebuildQueueTest, TablesComeInTheReckonedOrderOneATake) {
  RebuildQueue queue;
  const Clock::time_point t0 = Clock::now();
  EXPECT_FALSE(queue.Take(0, t0).has_value());  // Nothing reckoned yet.
  queue.Reset(Tables({7, 3, 9}), 2500, 4, t0);
  EXPECT_EQ(queue.gets_per_second(), 2500);
  for (const uint64_t n : {7, 3, 9}) {
    const std::optional<TableRebuild> next = queue.Take(4, t0 + std::chrono::seconds(1));
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(next->table.number, n);
  }
  EXPECT_FALSE(queue.Take(4, t0 + std::chrono::seconds(2)).has_value());
}

TEST(RebuildQueueTest, AJobOfRocksDbsOwnEndsTheReckoning) {
  RebuildQueue queue;
  const Clock::time_point t0 = Clock::now();
  queue.Reset(Tables({1, 2, 3}), 100, 10, t0);
  ASSERT_TRUE(queue.Take(10, t0).has_value());
  EXPECT_FALSE(queue.Take(11, t0).has_value());  // A flush or compaction began.
  EXPECT_FALSE(queue.Take(10, t0).has_value());  // And the tables are gone with it.
}

TEST(RebuildQueueTest, AReckoningHoldsForItsFreshSpanOnly) {
  RebuildQueue queue;
  const Clock::time_point t0 = Clock::now();
  queue.Reset(Tables({1, 2, 3}), 100, 0, t0);
  ASSERT_TRUE(queue.Take(0, t0 + kRebuildQueueFresh - std::chrono::milliseconds(1)).has_value());
  EXPECT_FALSE(queue.Take(0, t0 + kRebuildQueueFresh).has_value());
  EXPECT_FALSE(queue.Take(0, t0).has_value());
}

TEST(RebuildQueueTest, ANewReckoningReplacesTheLast) {
  RebuildQueue queue;
  const Clock::time_point t0 = Clock::now();
  queue.Reset(Tables({1, 2, 3}), 100, 0, t0);
  queue.Reset(Tables({5}), 50, 1, t0 + std::chrono::seconds(40));
  const std::optional<TableRebuild> next = queue.Take(1, t0 + std::chrono::seconds(41));
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->table.number, 5u);
  EXPECT_EQ(queue.gets_per_second(), 50);
  EXPECT_FALSE(queue.Take(1, t0 + std::chrono::seconds(41)).has_value());
}

}  // namespace
}  // namespace sstfilter
