// Which tables to rebuild where no block cache is modelled
// (filter/plan/fp_rebuilds.h): each table's saving by its run's false
// positives, and the order of the rewrites within the plan's bits.
#include "filter/plan/fp_rebuilds.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "filter/allocation/run_allocation.h"
#include "filter/filter_options.h"
#include "filter/plan/planned_runs.h"
#include "filter/plan/tables_against_plan.h"
#include "gtest/gtest.h"
#include "tests/plan_test_util.h"

namespace sstfilter {
namespace {

// ThreeLevelTree at 10 bits per key, each level reached by `reach`.
TreeRuns BuiltAtTen(const std::map<int, double>& reach) { return ThreeLevelTree(10, 0, reach); }

FilterOptions PerLevel() {
  FilterOptions options;
  options.encoding = EncodingId::kCacheLocal;
  options.per_level.optimize_levels = true;
  return options;
}

FilterOptions AccessAware() {
  FilterOptions given = PerLevel();
  given.per_level.access_aware = true;
  const absl::StatusOr<FilterOptions> options = ResolveFilterOptions(given);
  EXPECT_TRUE(options.ok()) << options.status();
  return options.value_or(given);
}

// L3's tables 0 and 1 of BottomTraffic, built at `bits` a key.
std::vector<BuiltTable> FirstTwoBottomTables(double bits) {
  std::vector<BuiltTable> tables;
  for (int i : {0, 1}) {
    BuiltTable t{static_cast<uint64_t>(100 + i), 3, 1e5, 8e6, bits * 1e5};
    t.has_range = true;
    t.smallest = BottomTableKey(i, false), t.largest = BottomTableKey(i, true);
    tables.push_back(t);
  }
  return tables;
}

TableAgainstPlan Table(uint64_t number, int level, double built, double planned) {
  return {number, level, 100000, 8e6, built, planned};
}

TEST(FpRebuildGainsTest, EachTableSavesItsRunsReachTimesItsKeysFalsePositives) {
  const TreeRuns runs = BuiltAtTen({{1, 1.0}, {2, 0.9}, {3, 0.8}});
  TreeBits bits;
  const std::vector<TableRebuild> gains =
      FpRebuildGains(PerLevel(), runs,
                     {Table(1, 1, 10, 14), Table(3, 3, 10, 8), Table(4, 3, 10, 10.1)}, {}, &bits);
  ASSERT_EQ(gains.size(), 2u) << "10.1 against 10 bits is on the plan";
  EXPECT_EQ(gains[0].table.number, 1u);
  // The encoding's exact model for filters of a table's 100,000 keys (the
  // plan samples its curve: within 1%).
  const auto fp = [](double bits, double keys) { return CacheLocalFpAt(bits, keys, 1e5); };
  EXPECT_NEAR(gains[0].saving, 1.0 * 100000 * (fp(10, 1e5) - fp(14, 1e5)) / 1e5,
              1e-2 * gains[0].saving);
  EXPECT_EQ(gains[1].table.number, 3u);
  EXPECT_NEAR(gains[1].saving, 0.8 * 100000 * (fp(10, 1e7) - fp(8, 1e7)) / 1e7,
              1e-2 * std::abs(gains[1].saving));
  EXPECT_EQ(gains[0].cost_bytes, 16e6) << "read and written";
  EXPECT_DOUBLE_EQ(AddedBits(gains[0]), 4 * 100000);
  EXPECT_DOUBLE_EQ(AddedBits(gains[1]), -2 * 100000);
  // The listed tables' bits as built and as planned.
  EXPECT_DOUBLE_EQ(bits.built, 3 * 10.0 * 100000);
  EXPECT_DOUBLE_EQ(bits.budget, (14 + 8 + 10.1) * 100000);
}

// A level whose off-plan tables add bits for a saving within the plan's
// tie is left as it is, unless the loop began moving it.
TEST(FpRebuildGainsTest, ALevelThatSavesTooLittleIsLeftUnlessItsMoveBegan) {
  const TreeRuns runs = BuiltAtTen({{1, 1.0}, {2, 1.0}, {3, 0.01}});
  const std::vector<TableAgainstPlan> tables{Table(3, 3, 10, 10.5), Table(4, 3, 10, 10.5)};
  TreeBits bits;
  EXPECT_TRUE(FpRebuildGains(PerLevel(), runs, tables, {}, &bits).empty());
  EXPECT_EQ(FpRebuildGains(PerLevel(), runs, tables, {{3, /*fewer=*/false}}, &bits).size(), 2u);
  EXPECT_TRUE(FpRebuildGains(PerLevel(), runs, tables, {{3, /*fewer=*/true}}, &bits).empty())
      << "a move the other way carries nothing";
}

// Access-aware: L3's first table draws 75 times its uniform share of the
// Gets, each other a quarter of it. Its plan and its saving follow its own key
// range's share, not its level's: the allocation's rule (p = mu * keys /
// (c * share)) gives two tables of as many keys at one level FPs in
// inverse proportion to their shares.
TEST(FpRebuildGainsTest, AnAccessAwareTableIsPlannedAndWeighedByItsRangesShare) {
  const FilterOptions options = AccessAware();
  TreeRuns runs = ThreeLevelTree(10);
  const double cold = 0.0025, hot = 1 - 99 * cold;
  constexpr double kBuilt = 11;  // Both: more than a bit and a half off the plan.
  runs.traffic = BottomTraffic([&](int i) { return i == 0 ? hot : cold; });
  std::vector<BuiltTable> tables = FirstTwoBottomTables(kBuilt);
  const auto tree = std::make_shared<const TreeRuns>(runs);
  const std::vector<TableAgainstPlan> against =
      TablesAgainstPlan(options, tree, nullptr, nullptr, TableHost{}, tables);
  ASSERT_EQ(against.size(), 2u);
  EXPECT_NEAR(against[0].share, hot, 1e-9);
  EXPECT_NEAR(against[1].share, cold, 1e-9);
  const auto fp = [](double bits) { return CacheLocalFpAt(bits, 1e7, 1e5); };
  // Within the setting's search precision and a filter's metadata.
  EXPECT_NEAR(fp(against[1].planned_bits) / fp(against[0].planned_bits), hot / cold,
              0.05 * hot / cold);
  // Its range not known, a table is planned by its level, between the two.
  tables[0].has_range = false;
  const std::vector<TableAgainstPlan> by_level =
      TablesAgainstPlan(options, tree, nullptr, nullptr, TableHost{}, tables);
  EXPECT_EQ(by_level[0].share, 0);
  EXPECT_LT(by_level[0].planned_bits, against[0].planned_bits);
  EXPECT_GT(by_level[0].planned_bits, against[1].planned_bits);

  TreeBits bits;
  const std::vector<TableRebuild> gains =
      FpRebuildGains(options, AsBuilt(runs, tables), against, {}, &bits);
  ASSERT_EQ(gains.size(), 2u);
  EXPECT_NEAR(gains[0].saving, hot * (fp(kBuilt) - fp(against[0].planned_bits)),
              0.02 * gains[0].saving);
  EXPECT_NEAR(gains[1].saving, cold * (fp(kBuilt) - fp(against[1].planned_bits)),
              0.02 * std::abs(gains[1].saving));
  EXPECT_GT(AddedBits(gains[0]), 0);
  EXPECT_LT(AddedBits(gains[1]), 0);
  // A bit off its plan is off a level's plan, not off a rarely read
  // table's range plan (whose share moves with its few samples).
  TableAgainstPlan near = against[1];
  ASSERT_GT(RangeOffPlanBits(near.sampled), 1.1);
  near.built_bits = near.planned_bits + 1;
  EXPECT_FALSE(OffPlan(near));
  near.share = 0;
  EXPECT_TRUE(OffPlan(near));
}

// A table born since most of the Gets were counted (a compaction's
// output) has a share that is mostly its level's mean: it stays as built
// until it has lived through kMinLivedShare of them.
TEST(FpRebuildGainsTest, AnAccessAwareTableBornSinceMostGetsWereCountedIsPlannedAsBuilt) {
  const FilterOptions options = AccessAware();
  TreeRuns runs = ThreeLevelTree(10);
  const double cold = 0.0025, hot = 1 - 99 * cold;
  auto traffic =
      std::make_shared<TreeTraffic>(*BottomTraffic([&](int i) { return i == 0 ? hot : cold; }));
  const std::vector<BuiltTable> tables = FirstTwoBottomTables(11);
  auto against = [&](double lived) {
    traffic->levels[3][1].evidence = lived * traffic->gets * traffic->levels[3][1].uniform;
    runs.traffic = traffic;
    return TablesAgainstPlan(options, std::make_shared<const TreeRuns>(runs), nullptr, nullptr,
                             TableHost{}, tables);
  };
  const std::vector<TableAgainstPlan> young = against(kMinLivedShare * 0.9);
  ASSERT_EQ(young.size(), 2u);
  EXPECT_DOUBLE_EQ(young[1].planned_bits, 11);
  EXPECT_FALSE(OffPlan(young[1]));
  EXPECT_TRUE(OffPlan(young[0])) << "the hot table has lived through every Get";
  EXPECT_NEAR(young[0].sampled, hot * traffic->gets, 1e-6) << "its share of every sampled Get";
  TreeBits bits;
  const std::vector<TableRebuild> gains =
      FpRebuildGains(options, AsBuilt(runs, tables), young, {}, &bits);
  ASSERT_EQ(gains.size(), 1u);
  EXPECT_EQ(gains[0].table.number, 100u);
  const std::vector<TableAgainstPlan> lived = against(kMinLivedShare * 1.1);
  EXPECT_LT(lived[1].planned_bits, 11 - 1.5) << "planned by its own share once lived";
}

// ThreeLevelTree with two L0 tables of 100,000 keys: file 6, built at 10
// bits a key, over the whole key range (every Get reaches it), and file
// 7, built at `bits`, over a part of it that 30% of the Gets reach; L3's
// traffic skewed to its first table. File 7 has lived through `lived`
// of the counted Gets, file 6 through a tenth (too young to rewrite).
TreeRuns WithL0Tables(double bits, double lived) {
  TreeRuns runs = ThreeLevelTree(10);
  auto traffic = std::make_shared<TreeTraffic>(
      *BottomTraffic([](int i) { return i == 0 ? 1 - 99 * 0.0025 : 0.0025; }));
  for (const auto& [number, built, reach, lived_share] :
       {std::tuple{6, 10.0, 1.0, 0.1}, std::tuple{7, bits, 0.3, lived}}) {
    RunCensus l0;
    l0.keys = l0.fixed_keys = 100000;
    l0.tables = 1;
    l0.fixed_filter_bits = static_cast<uint64_t>(built * 100000);
    l0.reach = reach;
    runs.l0_tables.push_back(l0);
    TableTraffic t;
    t.file_number = static_cast<uint64_t>(number);
    t.range.keys = 100000;
    t.range.smallest = BottomTableKey(0, false), t.range.largest = BottomTableKey(99, true);
    t.uniform = t.share = reach;
    t.evidence = lived_share * traffic->gets * reach;
    t.sampled = reach * traffic->gets;
    traffic->l0.push_back(t);
  }
  runs.traffic = traffic;
  return runs;
}

BuiltTable L0Table(uint64_t number, double bits) {
  BuiltTable t{number, 0, 1e5, 8e6, bits * 1e5};
  t.has_range = true;
  t.smallest = BottomTableKey(0, false), t.largest = BottomTableKey(99, true);
  return t;
}

// Access-aware with compactions running: an L0 table that has lived
// through the Gets is listed against the plan, at its own reach, and
// weighed by it (its reach times its FP as built against at the plan);
// its bits are the loop's to move, the rest of L0's are held. A young
// one, one where L0 stays, and one under a policy that does not learn
// where Gets go are not listed.
TEST(FpRebuildGainsTest, AnL0TableThatLivedThroughTheGetsIsWeighedByItsOwnReach) {
  const FilterOptions options = AccessAware();
  const TreeRuns runs = WithL0Tables(4, 1);
  const std::vector<BuiltTable> tables{L0Table(6, 10), L0Table(7, 4)};
  const auto listed = [&](const FilterOptions& o, const TreeRuns& r, const TableHost& host) {
    return TablesAgainstPlan(o, std::make_shared<const TreeRuns>(r), nullptr, nullptr, host,
                             tables);
  };
  const std::vector<TableAgainstPlan> against = listed(options, runs, TableHost{});
  ASSERT_EQ(against.size(), 1u) << "file 6 is too young";
  EXPECT_EQ(against[0].number, 7u);
  EXPECT_EQ(against[0].level, 0);
  EXPECT_DOUBLE_EQ(against[0].l0_reach, 0.3);
  EXPECT_EQ(against[0].share, 0) << "planned as a run of its own, not by its range";
  EXPECT_GT(against[0].planned_bits, 4 + 1);

  TreeBits bits;
  const std::vector<TableRebuild> gains =
      FpRebuildGains(options, AsBuilt(runs, tables), against, {}, &bits);
  ASSERT_EQ(gains.size(), 1u);
  const auto fp = [](double b) { return CacheLocalFpAt(b, 1e5, 1e5); };
  EXPECT_NEAR(gains[0].saving, 0.3 * (fp(4) - fp(against[0].planned_bits)), 0.02 * gains[0].saving);
  EXPECT_DOUBLE_EQ(bits.built, 4 * 1e5);
  EXPECT_NEAR(bits.add_limit, MostBits(options, RunsOf(options, runs)) - 10 * 1e5, 1)
      << "the tree's bits less what the L0 table not listed holds";

  EXPECT_TRUE(listed(options, WithL0Tables(4, kMinLivedShare * 0.9), TableHost{}).empty())
      << "born since most of the Gets were counted";
  TableHost stays;
  stays.l0_stays = true;
  EXPECT_TRUE(listed(options, runs, stays).empty()) << "automatic compactions off";
  EXPECT_TRUE(listed(PerLevel(), runs, TableHost{}).empty()) << "not access_aware";
}

// Under optimize_filters_for_hits RocksDB writes an L0 table without a
// filter only where it is bottommost: no older L0 table and nothing below
// holds a key of its range. Planned so, an L0 table above an older one
// keeps its filter, and the oldest of an L0-only tree has none.
TEST(FpRebuildGainsTest, AnL0TableIsPlannedBottommostAsRocksDbWritesIt) {
  const FilterOptions options = AccessAware();
  TreeRuns runs = WithL0Tables(4, 1);
  runs.levels.clear();
  auto traffic = std::make_shared<TreeTraffic>(*runs.traffic);
  traffic->levels.clear();
  for (TableTraffic& t : traffic->l0) t.evidence = traffic->gets * t.uniform;  // Both lived.
  runs.traffic = traffic;
  TableHost hits;
  hits.deepest_unfiltered = true;
  const std::vector<TableAgainstPlan> against =
      TablesAgainstPlan(options, std::make_shared<const TreeRuns>(runs), nullptr, nullptr, hits,
                        {L0Table(6, 10), L0Table(7, 4)});
  ASSERT_EQ(against.size(), 2u);
  EXPECT_EQ(against[0].planned_bits, 0) << "the oldest, nothing below it";
  EXPECT_GT(against[1].planned_bits, 0) << "an older L0 table holds its keys";
}

// Tables planned by their ranges, each within kRangeOffPlanBits of its plan
// but together more than kBudgetSlack over the plan's bits: those over
// their plans by more than kOffPlanBits free bits; within the slack, none
// (no add to make room for).
TEST(FpRebuildGainsTest, PastTheSlackTablesPlannedByRangeFreeWithinTheirBand) {
  const FilterOptions options = AccessAware();
  TreeRuns runs = ThreeLevelTree(10);
  runs.traffic = BottomTraffic([](int) { return 0.01; });
  const std::vector<BuiltTable> tables = FirstTwoBottomTables(10);
  std::vector<TableAgainstPlan> against = TablesAgainstPlan(
      options, std::make_shared<const TreeRuns>(runs), nullptr, nullptr, TableHost{}, tables);
  ASSERT_EQ(against.size(), 2u);
  auto gains_at = [&](double over) {
    for (TableAgainstPlan& t : against) t.built_bits = t.planned_bits + over;
    TreeBits bits;
    const std::vector<TableRebuild> gains =
        FpRebuildGains(options, AsBuilt(runs, tables), against, {}, &bits);
    return RebuildsWithinBudget(gains, 1e6, bits);
  };
  const double planned = against[0].planned_bits;
  ASSERT_GT(planned, 5);
  const double past_slack = 1.5 * kBudgetSlack * planned;
  ASSERT_LT(past_slack, RangeOffPlanBits(against[0].sampled)) << "each table within its band";
  const std::vector<TableRebuild> frees = gains_at(past_slack);
  ASSERT_EQ(frees.size(), 2u);
  for (const TableRebuild& f : frees) EXPECT_LT(AddedBits(f), 0);
  // Within the slack, a table over its plan past kOffPlanBits (OverPlan)
  // but within its band frees nothing.
  const double within_slack = 0.95 * kBudgetSlack * planned;
  ASSERT_GT(within_slack, kOffPlanBits + kFilterOverheadBits / against[0].entries);
  EXPECT_TRUE(gains_at(within_slack).empty()) << "within the slack";
}

// A hand-made rebuild of `entries` keys from `built` to `planned` bits per
// key saving `saving` reads per Get, reading and writing 2 MB.
TableRebuild Gain(uint64_t number, double built, double planned, double saving) {
  return {{number, 3, 1000, 1e6, built, planned}, saving, 2e6};
}

std::vector<uint64_t> Numbers(const std::vector<TableRebuild>& rebuilds) {
  std::vector<uint64_t> numbers;
  for (const TableRebuild& r : rebuilds) numbers.push_back(r.table.number);
  return numbers;
}

// 10% over the budget, past its slack: the frees that add the fewest
// reads a bit come first until the tree is within the budget itself; an
// add that pays back then goes into the room left; an add that does not
// pay back at the Get rate is left.
TEST(RebuildsWithinBudgetTest, PastTheSlackFreesToTheBudgetThenAddsIntoTheRoomLeft) {
  const std::vector<TableRebuild> gains{
      Gain(1, 10, 7, -0.003),   // Frees 3,000 bits, 1e-6 reads a bit.
      Gain(2, 10, 5, -0.002),   // Frees 5,000, 0.4e-6 a bit.
      Gain(3, 10, 5, -0.01),    // Frees 5,000, 2e-6 a bit.
      Gain(4, 10, 12, 0.01),    // Adds 2,000, saves 5e-6 a bit; pays from 81 Gets/s.
      Gain(5, 10, 11, 0.0001),  // Adds 1,000; pays from 8,138 Gets/s.
  };
  // After the frees, 3,000 bits under the budget.
  const TreeBits bits{100000, 110000};
  EXPECT_EQ(Numbers(RebuildsWithinBudget(gains, 1000, bits)), (std::vector<uint64_t>{2, 1, 3, 4}));
  EXPECT_EQ(Numbers(RebuildsWithinBudget(gains, 1e6, bits)), (std::vector<uint64_t>{2, 1, 3, 4, 5}))
      << "at a million Gets a second the last add pays too, into the room left";
  EXPECT_EQ(Numbers(RebuildsWithinBudget(gains, 10, bits)), (std::vector<uint64_t>{2, 1, 3}))
      << "no add pays: only the budget's frees";
  EXPECT_TRUE(RebuildsWithinBudget(gains, 10, {100000, 102900}).empty())
      << "within the slack, nothing is freed for the budget";
}

// Within the budget, a free is made only for an add that saves more reads
// a bit than it costs; nothing off the plan, nothing to do.
TEST(RebuildsWithinBudgetTest, WithinTheBudgetAFreeIsMadeOnlyForABetterAdd) {
  const TreeBits bits{100000, 100000};              // No room: the slack is not to spend.
  const TableRebuild add = Gain(1, 10, 15, 0.005);  // Adds 5,000, 1e-6 a bit.
  EXPECT_TRUE(RebuildsWithinBudget({add, Gain(2, 10, 5, -0.01)}, 1000, bits).empty())
      << "the free adds 2e-6 reads a bit";
  EXPECT_EQ(Numbers(RebuildsWithinBudget({add, Gain(2, 10, 5, -0.001)}, 1000, bits)),
            (std::vector<uint64_t>{2, 1}));
  EXPECT_TRUE(RebuildsWithinBudget({Gain(1, 10, 12, 0.005)}, 1000, bits).empty());
  EXPECT_EQ(Numbers(RebuildsWithinBudget({Gain(1, 10, 12, 0.005)}, 1000, {100000, 97000})),
            (std::vector<uint64_t>{1}))
      << "2,000 bits fit the room";
  EXPECT_TRUE(RebuildsWithinBudget({}, 1000, bits).empty());
}

// Where L0 holds more than its share the levels have less room to add
// into (add_limit), but nothing is freed to repay it.
TEST(RebuildsWithinBudgetTest, AnL0OverItsShareLeavesLessRoomToAddIntoAndFreesNothing) {
  const TableRebuild add = Gain(1, 10, 12, 0.005);  // Adds 2,000 bits.
  TreeBits bits{100000, 97000};
  EXPECT_EQ(Numbers(RebuildsWithinBudget({add}, 1000, bits)), (std::vector<uint64_t>{1}));
  bits.add_limit = 98000;
  EXPECT_TRUE(RebuildsWithinBudget({add}, 1000, bits).empty()) << "1,000 bits of room";
  bits.add_limit = 90000;
  EXPECT_TRUE(RebuildsWithinBudget({add, Gain(2, 10, 9, -0.0001)}, 1000, bits).empty())
      << "7,000 over the limit but within the budget: nothing freed";
}

// Access-aware, the tables within their plans' bits: the hot table is 12
// bits a key under its plan, a cold one 1.4 over its own, within its
// band (a share from a few samples). The room under the plan's bits does
// not hold the hot table's add; the cold table's surplus is freed to make
// it, and only for it.
TEST(FpRebuildGainsTest, AColdTablesSurplusWithinItsBandMakesRoomForAHotTablesAdd) {
  const FilterOptions options = AccessAware();
  TreeRuns runs = ThreeLevelTree(10);
  runs.traffic = BottomTraffic([](int i) { return i == 0 ? 1 - 99 * 0.0025 : 0.0025; });
  std::vector<BuiltTable> tables = FirstTwoBottomTables(10);
  std::vector<TableAgainstPlan> against = TablesAgainstPlan(
      options, std::make_shared<const TreeRuns>(runs), nullptr, nullptr, TableHost{}, tables);
  ASSERT_EQ(against.size(), 2u);
  against[0].built_bits = against[0].planned_bits - 12;
  against[1].built_bits = against[1].planned_bits + 1.4;
  for (size_t i = 0; i < 2; ++i) tables[i].filter_bits = against[i].built_bits * tables[i].entries;
  ASSERT_TRUE(OffPlan(against[0]));
  ASSERT_FALSE(OffPlan(against[1])) << "within its band";
  ASSERT_TRUE(OverPlan(against[1]));

  TreeBits bits;
  const std::vector<TableRebuild> gains =
      FpRebuildGains(options, AsBuilt(runs, tables), against, {}, &bits);
  ASSERT_EQ(Numbers(gains), (std::vector<uint64_t>{100, 101})) << "the free listed after";
  EXPECT_LT(bits.built, bits.budget);
  EXPECT_EQ(Numbers(RebuildsWithinBudget(gains, 1e6, bits)), (std::vector<uint64_t>{101, 100}))
      << "the cold table's free makes the hot table's room";
  EXPECT_TRUE(RebuildsWithinBudget({gains[1]}, 1e6, bits).empty()) << "no add to make room for";
}

}  // namespace
}  // namespace sstfilter
