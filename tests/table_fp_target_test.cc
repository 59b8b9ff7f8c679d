// The per-level model's FP target for a table (filter/allocation/
// table_fp_target.h) on hand-made trees, without a database: the runs'
// sizes, a byte budget, the debts of tables not being rewritten, and
// access-aware allocation over a level split by its lookups
// (traffic_parts.h).
#include "filter/allocation/table_fp_target.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "filter/allocation/run_allocation.h"
#include "filter/allocation/traffic_parts.h"
#include "filter/allocation/tree_traffic.h"
#include "filter/fp_target.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

// Runs of these sizes, nothing fixed (every run free).
std::vector<RunCensus> Runs(const std::vector<uint64_t>& keys) {
  std::vector<RunCensus> runs;
  for (uint64_t n : keys) runs.push_back(RunCensus{n, 0, 0, 0, 1});
  return runs;
}

// A table's target from the census: its run's FP proportional to the run's
// keys (a flush: the table itself; a level: all of it, with what is being
// compacted into it).
// A filter of n entries, its key range not tracked.
FilterKeys Entries(size_t n) {
  FilterKeys keys;
  keys.entries = n;
  return keys;
}

// Two L0 tables of 30,000 keys, L1-L3 of 100,000, 400,000 and 1.6M.
TreeRuns FourRunTree() {
  TreeRuns runs;
  runs.l0_tables = Runs({30000, 30000});
  runs.levels = Runs({0, 100000, 400000, 1600000});
  return runs;
}

FilterOptions PerLevelCacheLocal() {
  FilterOptions options;
  options.encoding = EncodingId::kCacheLocal;
  options.per_level.optimize_levels = true;
  return options;
}

// What a table being built is expected to hold: a flush, the last flush;
// else its level's mean table, else the nearest level's that has tables.
TEST(ExpectedTableEntriesTest, FromTheLastFlushOrTheNearestLevelsTables) {
  TreeRuns runs;
  EXPECT_EQ(ExpectedTableEntries(runs, 0), 0);
  EXPECT_EQ(ExpectedTableEntries(runs, 3), 0);
  runs.levels = Runs({0, 0, 0, 900});
  runs.levels[3].tables = 3;
  EXPECT_EQ(ExpectedTableEntries(runs, 0), 300) << "no L0, no flush: L3's tables";
  EXPECT_EQ(ExpectedTableEntries(runs, 1), 300);
  EXPECT_EQ(ExpectedTableEntries(runs, 5), 300) << "below the deepest level";
  runs.levels[1] = RunCensus{100, 2, 0, 0, 1};
  EXPECT_EQ(ExpectedTableEntries(runs, 1), 50);
  EXPECT_EQ(ExpectedTableEntries(runs, 2), 50) << "L1 and L3 as near: the shallower";
  EXPECT_EQ(ExpectedTableEntries(runs, 3), 300);
  runs.l0_tables = Runs({20, 40});
  EXPECT_EQ(ExpectedTableEntries(runs, 0), 30);
  runs.last_flush_keys = 70;
  EXPECT_EQ(ExpectedTableEntries(runs, 0), 70);
  EXPECT_EQ(ExpectedTableEntries(runs, 1), 50) << "the last flush is L0's alone";
}

// The rule is decided before the table holds anything: its filters share
// one FP whatever each holds, that of the entries the table is expected to
// hold.
TEST(TableFpRuleTest, OneFpForTheTablesFiltersAtItsExpectedSize) {
  const TreeRuns runs = FourRunTree();
  const TablePlace flush{0, EncodingId::kCacheLocal};
  const TableFpRule rule = TableFpRuleFor(PerLevelCacheLocal(), runs, flush, 30000);
  EXPECT_EQ(FilterFp(rule, Entries(3000)), rule.fp);
  EXPECT_EQ(FilterFp(rule, Entries(90000)), rule.fp);
  EXPECT_EQ(rule.fp, TableFpTarget(PerLevelCacheLocal(), runs, flush, Entries(30000)));
  // Expected at three times L0's mean, the flush is a bigger run: more FP.
  EXPECT_GT(TableFpRuleFor(PerLevelCacheLocal(), runs, flush, 90000).fp, rule.fp * 2);
}

TEST(TableFpTargetTest, FollowsTheRunsSizes) {
  TreeRuns runs = FourRunTree();
  const FilterOptions options = PerLevelCacheLocal();
  auto target = [&](int level, size_t n) {
    return TableFpTarget(options, runs, TablePlace{level, EncodingId::kCacheLocal}, Entries(n));
  };
  const double flush = target(0, 30000), l1 = target(1, 20000), l3 = target(3, 20000);
  EXPECT_NEAR(l3 / l1, 16.0, 16.0 * 0.1) << "FP in proportion to the runs' keys";
  EXPECT_NEAR(l1 / flush, 100000.0 / 30000, 0.4);
  EXPECT_LT(l3, 0.05);
  // A level being created: the keys compacted into it are its size.
  runs.levels.push_back(RunCensus{6400000, 0, 0, 0, 1});
  EXPECT_NEAR(target(4, 20000) / target(3, 20000), 4.0, 0.4);
}

// A byte budget below what bits_per_key spends over the tree sets the
// tables' FP; one above it leaves bits_per_key's.
TEST(TableFpTargetTest, AByteBudgetCapsTheTreesMemory) {
  const TreeRuns runs = FourRunTree();
  FilterOptions options = PerLevelCacheLocal();
  auto target = [&](int level) {
    return TableFpTarget(options, runs, TablePlace{level, EncodingId::kCacheLocal}, Entries(20000));
  };
  const double free = target(3);
  // 2.16M keys at ~10 bits: ~2.6 MiB. Half of it: about 5 bits/key fewer.
  options.per_level.budget_mb = 1.3;
  const double capped = target(3);
  EXPECT_GT(capped, 5 * free);
  EXPECT_NEAR(target(1) / capped, 1.0 / 16, 0.01) << "the runs' proportions stay";
  options.per_level.budget_mb = 100;
  EXPECT_EQ(target(3), free);
}

// Where the host writes the deepest level without filters (RocksDB's
// optimize_filters_for_hits), the budget is the uniform setting's over the
// runs above it: they are planned as a tree without that level, and their
// memory is the uniform setting's for them, not a share of the bottom's.
TEST(TableFpTargetTest, ADeepestLevelWithoutFiltersTakesNoBudget) {
  const FilterOptions options = PerLevelCacheLocal();
  TreeRuns runs;
  runs.levels = Runs({0, 100000, 400000, 1600000});
  for (RunCensus& run : runs.levels) run.tables = run.keys / 20000;
  TreeRuns without_bottom = runs;
  without_bottom.levels.pop_back();
  auto target = [&](const TreeRuns& tree, int level) {
    return TableFpTarget(options, tree, TablePlace{level, EncodingId::kCacheLocal}, Entries(20000));
  };
  const double shared_l1 = target(runs, 1);
  runs.deepest_unfiltered = true;
  for (int level : {0, 1, 2}) {
    EXPECT_EQ(target(runs, level), target(without_bottom, level)) << "L" << level;
  }
  // The bottom's bits no longer pay for the upper levels' FP.
  EXPECT_GT(target(runs, 1), 1.5 * shared_l1);
  double planned = 0, uniform = 0;
  for (int level : {1, 2}) {
    const double keys = static_cast<double>(runs.levels[level].keys);
    const RunModel model = EncodingRunModel(EncodingId::kCacheLocal, keys, 10, 20000);
    planned += keys * model.bits_for_fp(target(runs, level));
    uniform += keys * model.uniform_bits;
  }
  EXPECT_NEAR(planned / uniform, 1.0, 0.01);
}

// A burst with automatic compactions off: L0's tables stay (nothing
// compacts them) holding 50 bits a key. A table below L0 is planned on
// the tree's budget (budget_mb, or the uniform setting's bits) less what
// they hold, so that the levels at their planned FP and L0 as it is fill
// it; without l0_stays L0's excess stays unrepaid (its debt leaves with
// its tables), over the budget.
TEST(TableFpTargetTest, WhereL0StaysTheLevelsRepayWhatItHoldsOverItsShare) {
  FilterOptions options = PerLevelCacheLocal();
  options.per_level.budget_mb = 2.0;
  TreeRuns runs = FourRunTree();
  for (RunCensus& run : runs.levels) run.tables = run.keys / 20000;
  double l0_bits = 0;
  double uniform = 0;
  for (RunCensus& run : runs.l0_tables) {
    run.tables = 1;
    run.fixed_keys = run.keys;
    run.fixed_filter_bits = 50 * run.keys;
    l0_bits += static_cast<double>(run.fixed_filter_bits);
    const auto keys = static_cast<double>(run.keys);
    uniform += keys * EncodingRunModel(EncodingId::kCacheLocal, keys, 10, keys).uniform_bits;
  }
  for (const RunCensus& run : runs.levels) {
    const auto keys = static_cast<double>(run.keys);
    if (keys > 0) {
      uniform += keys * EncodingRunModel(EncodingId::kCacheLocal, keys, 10, 20000).uniform_bits;
    }
  }
  auto spent = [&] {
    double bits = l0_bits;
    for (int level : {1, 2, 3}) {
      const double keys = static_cast<double>(runs.levels[level].keys);
      const double fp =
          TableFpTarget(options, runs, TablePlace{level, EncodingId::kCacheLocal}, Entries(20000));
      bits += keys * EncodingRunModel(EncodingId::kCacheLocal, keys, 10, 20000).bits_for_fp(fp);
    }
    return bits;
  };
  const double budget = *options.per_level.budget_mb * 8 * 1024 * 1024;
  EXPECT_GT(spent() / budget, 1.05) << "the levels planned as if L0 held its share";
  runs.targets.l0_stays = true;
  EXPECT_NEAR(spent() / budget, 1.0, 0.01);
  options.per_level.budget_mb.reset();
  EXPECT_NEAR(spent() / uniform, 1.0, 0.01) << "no budget_mb: the uniform setting's bits";
  runs.targets.l0_stays = false;
  EXPECT_GT(spent() / uniform, 1.05);
  runs.targets.l0_stays = true;
  // An L0 table being written is planned as before.
  TreeRuns compacting = runs;
  compacting.targets.l0_stays = false;
  EXPECT_EQ(
      TableFpTarget(options, runs, TablePlace{0, EncodingId::kCacheLocal}, Entries(30000)),
      TableFpTarget(options, compacting, TablePlace{0, EncodingId::kCacheLocal}, Entries(30000)));
}

// A level's tables not being rewritten hold what they were built with,
// over or under the level's share: the table written into that level takes
// the open allocation's FP all the same (the debt leaves with the tables
// that hold it; the level's tables stay alike). A shallower level's debt
// does not move it either.
TEST(TableFpTargetTest, LeavesALevelsOwnDebtToItsTables) {
  const FilterOptions options = PerLevelCacheLocal();
  TreeRuns runs = FourRunTree();
  const size_t n = 20000;
  auto target = [&] {
    return TableFpTarget(options, runs, TablePlace{3, EncodingId::kCacheLocal}, Entries(n));
  };
  const double open = target();
  // 1.5M of the bottom's 1.6M keys are fixed.
  RunCensus& bottom = runs.levels[3];
  bottom.fixed_keys = 1500000;
  for (const double bits_per_key : {6.0, 10.0, 14.0}) {
    bottom.fixed_filter_bits = static_cast<uint64_t>(bits_per_key * 1500000);
    EXPECT_NEAR(target() / open, 1.0, 0.001) << bits_per_key << " bits/key fixed";
  }
  bottom.fixed_keys = 0, bottom.fixed_filter_bits = 0;
  runs.levels[2].fixed_keys = 400000;
  runs.levels[2].fixed_filter_bits = 400000 * 2;
  EXPECT_NEAR(target() / open, 1.0, 0.001);
}

// A bottom level no job is rewriting, sized for a tree without the L0
// tables that came since, holds more than its share: the flushes above it
// repay that (fewer bits, a higher FP), at most kMaxRepayFactor a job;
// where it holds less, they get more.
TEST(TableFpTargetTest, FlushesRepayTheDeeperLevelsDebt) {
  FilterOptions options;
  options.encoding = EncodingId::kCacheLocal;
  options.per_level.optimize_levels = true;
  TreeRuns runs;
  runs.levels = Runs({0, 0, 0, 1600000});
  const size_t n = 30000;
  auto flush = [&] {
    return TableFpTarget(options, runs, TablePlace{0, EncodingId::kCacheLocal}, Entries(n));
  };
  const double open = flush();
  RunCensus& bottom = runs.levels[3];
  bottom.fixed_keys = bottom.keys;
  // The bottom's share at the open allocation, and bits over or under it.
  const RunModel model = EncodingRunModel(EncodingId::kCacheLocal, 1600000, 10);
  const double neutral = 1600000 * model.bits_for_fp(AllocateRunFpRates(
                                        {EncodingRunModel(EncodingId::kCacheLocal, n, 10, n),
                                         model})[1]);
  auto with_fixed_bits = [&](double bits) {
    bottom.fixed_filter_bits = static_cast<uint64_t>(bits);
    return flush();
  };
  EXPECT_NEAR(with_fixed_bits(neutral) / open, 1.0, 0.02);
  // Over by 0.01 bits a key: the flush's 30,000 keys spend 0.53 fewer.
  const double repaying = with_fixed_bits(neutral + 0.01 * 1600000);
  EXPECT_GT(repaying, open * 1.2);
  EXPECT_LT(repaying, open * kMaxRepayFactor / 1.05);
  // By a bit a key: more than one job can repay; held at 2x either way.
  EXPECT_NEAR(with_fixed_bits(neutral + 1600000) / kMaxRepayFactor / open, 1.0, 0.001);
  EXPECT_NEAR(with_fixed_bits(neutral - 1600000) * kMaxRepayFactor / open, 1.0, 0.001);
}

TEST(SplitByTrafficTest, OnePartPerBandOfLookupsPerEntry) {
  RunModel run;
  run.keys = 4000, run.fixed_keys = 2000, run.fixed_bits = 20000, run.reach = 1;
  auto table = [](uint64_t keys, double share) {
    return TableTraffic{0, KeyRange{"a", "b", keys}, share, 0, 0};
  };
  // Per entry 9e-4 and 1e-4: two bands; 5e-4 and 6e-4 (within sqrt 2): one.
  const std::vector<RunModel> two = SplitByTraffic(run, {table(1000, 0.9), table(1000, 0.1)});
  ASSERT_EQ(two.size(), 2u);
  double keys = 0, fixed_keys = 0, fixed_bits = 0, reach = 0;
  for (const RunModel& part : two) {
    EXPECT_DOUBLE_EQ(part.keys, 2000);
    keys += part.keys, fixed_keys += part.fixed_keys, fixed_bits += part.fixed_bits;
    reach += part.reach;
  }
  EXPECT_DOUBLE_EQ(keys, 4000);
  EXPECT_DOUBLE_EQ(fixed_keys, 2000);
  EXPECT_DOUBLE_EQ(fixed_bits, 20000);
  EXPECT_DOUBLE_EQ(reach, 2.0) << "lookups per entry kept at the run's 4000 keys";
  EXPECT_DOUBLE_EQ(two[0].reach, 0.2);  // The cold band first.
  const std::vector<RunModel> one = SplitByTraffic(run, {table(1000, 0.5), table(1000, 0.6)});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_DOUBLE_EQ(one[0].reach, 2.2);
  EXPECT_EQ(SplitByTraffic(run, {}).size(), 1u);
  EXPECT_EQ(SplitByTraffic(run, {}).front().reach, 1);
}

// A bottom level of 16 tables of 100,000 keys ("a0".."a9" to "p0".."p9"),
// the first reached by half the Gets, the others by 1/30 each; L5 above.
TreeRuns SkewedTree(double gets) {
  TreeRuns runs;
  runs.levels.resize(7);
  runs.levels[5] = RunCensus{160000, 2, 0, 0, 1};
  runs.levels[6] = RunCensus{1600000, 16, 0, 0, 1};
  auto traffic = std::make_shared<TreeTraffic>();
  traffic->gets = gets;
  traffic->levels.resize(7);
  for (int i = 0; i < 16; ++i) {
    const std::string c(1, static_cast<char>('a' + i));
    traffic->levels[6].push_back(
        TableTraffic{0, KeyRange{c + "0", c + "9", 100000}, i == 0 ? 0.5 : 0.5 / 15, 1.0 / 16,
                     1e6});
  }
  runs.traffic = std::move(traffic);
  return runs;
}

FilterKeys TableOf(int i) {
  const std::string c(1, static_cast<char>('a' + i));
  return FilterKeys{100000, true, c + "0", c + "9"};
}

TEST(AccessAwareTargetTest, HotTablesGetMoreBitsAndTheBudgetHolds) {
  FilterOptions options;
  options.encoding = EncodingId::kCacheLocal;
  options.per_level.optimize_levels = true;
  const TablePlace bottom{6, EncodingId::kCacheLocal};
  const TreeRuns runs = SkewedTree(1000);
  const double uniform = TableFpTarget(options, runs, bottom, TableOf(0));
  options.per_level.access_aware = true;
  const double hot = TableFpTarget(options, runs, bottom, TableOf(0));
  const double cold = TableFpTarget(options, runs, bottom, TableOf(5));
  // p = mu * n / (c * share): the hot table's FP 15x below a cold one's.
  EXPECT_NEAR(cold / hot, 15, 15 * 0.1);
  EXPECT_LT(hot, uniform);
  EXPECT_GT(cold, uniform);
  // The sixteen tables, each sized for its own range, spend the bytes the
  // uniform weighting does (within 2%), and read fewer blocks.
  double bits = 0, static_bits = 0, reads = 0, static_reads = 0;
  for (int i = 0; i < 16; ++i) {
    const double share = i == 0 ? 0.5 : 0.5 / 15;
    const double p = TableFpTarget(options, runs, bottom, TableOf(i));
    bits += 100000 * BitsPerKeyForFp(EncodingId::kCacheLocal, 100000, p);
    static_bits += 100000 * BitsPerKeyForFp(EncodingId::kCacheLocal, 100000, uniform);
    reads += share * p, static_reads += share * uniform;
  }
  EXPECT_NEAR(bits / static_bits, 1.0, 0.02);
  EXPECT_LT(reads, static_reads / 1.3);
}

TEST(AccessAwareTargetTest, StaticUntilTrafficIsKnownOrWithoutARange) {
  FilterOptions options;
  options.encoding = EncodingId::kCacheLocal;
  options.per_level.optimize_levels = true;
  const TablePlace bottom{6, EncodingId::kCacheLocal};
  const double uniform = TableFpTarget(options, SkewedTree(1000), bottom, TableOf(0));
  options.per_level.access_aware = true;
  EXPECT_EQ(TableFpTarget(options, SkewedTree(kMinTrafficGets / 2), bottom, TableOf(0)), uniform);
  FilterKeys no_range = TableOf(0);
  no_range.has_range = false;
  EXPECT_EQ(TableFpTarget(options, SkewedTree(1000), bottom, no_range), uniform);
  TreeRuns no_traffic = SkewedTree(1000);
  no_traffic.traffic = nullptr;
  EXPECT_EQ(TableFpTarget(options, no_traffic, bottom, TableOf(0)), uniform);
}

}  // namespace
}  // namespace sstfilter
