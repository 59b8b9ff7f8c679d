// The levels above a table held to leveled compaction's targets
// (filter/allocation/steady_tree.h), against values worked out by hand.
#include "filter/allocation/steady_tree.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

RunCensus Sized(uint64_t keys, uint64_t tables = 1, uint64_t fixed_keys = 0, uint64_t fixed_bits = 0) {
  RunCensus run;
  run.keys = keys;
  run.tables = tables;
  run.fixed_keys = fixed_keys;
  run.fixed_filter_bits = fixed_bits;
  return run;
}

LevelTargets Static(double base_entries, int l0_tables = 0) {
  LevelTargets t;
  t.leveled = true;
  t.l0_tables = l0_tables;
  t.base_entries = base_entries;
  return t;
}

std::vector<uint64_t> Keys(const TreeRuns& runs) {
  std::vector<uint64_t> keys;
  for (const RunCensus& run : runs.levels) keys.push_back(run.keys);
  return keys;
}

TEST(SteadyTreeTest, LeavesTreesWithoutTargetsAndFlushesAlone) {
  TreeRuns runs;
  runs.l0_tables = {Sized(10), Sized(20), Sized(30)};
  runs.levels = {RunCensus{}, Sized(5000), Sized(100)};
  runs.targets = Static(100, 1);
  runs.targets.leveled = false;  // Universal or FIFO.
  EXPECT_EQ(Keys(SteadyTree(runs, 2)), Keys(runs));
  EXPECT_EQ(SteadyTree(runs, 2).l0_tables.size(), 3u);
  runs.targets.leveled = true;
  EXPECT_EQ(SteadyTree(runs, 0).l0_tables.size(), 3u);  // A flush.
  EXPECT_EQ(Keys(SteadyTree(runs, 0)), Keys(runs));
}

TEST(SteadyTreeTest, KeepsL0sNewestTablesAndMovesTheRestToL1) {
  TreeRuns runs;
  runs.l0_tables = {Sized(10), Sized(20), Sized(30), Sized(40), Sized(50), Sized(60)};  // Oldest first.
  runs.levels = {RunCensus{}, Sized(0), Sized(1000)};
  runs.targets = Static(/*base_entries=*/0, /*l0_tables=*/2);
  const TreeRuns steady = SteadyTree(runs, 2);
  ASSERT_EQ(steady.l0_tables.size(), 2u);
  EXPECT_EQ(steady.l0_tables[0].keys, 50u);
  EXPECT_EQ(steady.l0_tables[1].keys, 60u);
  EXPECT_EQ(Keys(steady), (std::vector<uint64_t>{0, 10 + 20 + 30 + 40, 1000}));
  EXPECT_EQ(steady.levels[1].fixed_keys, 0u);  // Still to be written.
}

TEST(SteadyTreeTest, CascadesWhatAStaticLevelHoldsOverItsTarget) {
  TreeRuns runs;
  // L1 (target 100) holds 250, 200 of them in fixed tables at 10 bits/key;
  // L2 (target 1000) 900; the table is written into L3.
  runs.levels = {RunCensus{}, Sized(250, 5, 200, 2000), Sized(900, 9), Sized(5000, 50)};
  runs.targets = Static(100);
  const TreeRuns steady = SteadyTree(runs, 3);
  // L1 keeps 100 (0.4 of it), L2 gets its 150 (1050) and keeps 1000, L3
  // gets the 50.
  EXPECT_EQ(Keys(steady), (std::vector<uint64_t>{0, 100, 1000, 5050}));
  EXPECT_EQ(steady.levels[1].fixed_keys, 80u);
  EXPECT_EQ(steady.levels[1].fixed_filter_bits, 800u);  // 10 bits/key still.
  EXPECT_EQ(steady.levels[1].tables, 2u);
  EXPECT_EQ(steady.levels[3].fixed_keys, 0u);
}

TEST(SteadyTreeTest, DynamicTargetsFollowTheDeepestLevel) {
  TreeRuns runs;
  // L6 10000: L5's target 1000, L4's 100. L0 tables go to the first level
  // holding tables, L4.
  runs.l0_tables = {Sized(7), Sized(8)};
  runs.levels = {RunCensus{}, {}, {}, {}, Sized(300), Sized(1500), Sized(10000)};
  runs.targets = Static(/*base_entries=*/1, /*l0_tables=*/1);
  runs.targets.dynamic = true;
  const TreeRuns steady = SteadyTree(runs, 6);
  // L4: 300 + 7 = 307 -> 100, L5: 1500 + 207 -> 1000, L6: 10000 + 707.
  EXPECT_EQ(Keys(steady), (std::vector<uint64_t>{0, 0, 0, 0, 100, 1000, 10707}));
  ASSERT_EQ(steady.l0_tables.size(), 1u);
  EXPECT_EQ(steady.l0_tables[0].keys, 8u);
}

TEST(SteadyTreeTest, LeavesTheTablesOwnLevelAndDeeperAlone) {
  TreeRuns runs;
  runs.levels = {RunCensus{}, Sized(500), Sized(5000), Sized(100)};
  runs.targets = Static(100);
  // Written into L2: L1 is held to 100 (its 400 go to L2); L2, over its
  // target of 1000, and L3 stay.
  EXPECT_EQ(Keys(SteadyTree(runs, 2)), (std::vector<uint64_t>{0, 100, 5400, 100}));
  // Into a level past the runs: it is added, and receives what is above.
  EXPECT_EQ(Keys(SteadyTree(runs, 5)), (std::vector<uint64_t>{0, 100, 1000, 4500, 0, 0}));
}

}  // namespace
}  // namespace sstfilter
