// Which tables to rebuild (filter/plan/rebuild_gain.h), on hand-made trees
// whose tables were built under another plan than today's.
#include "filter/plan/rebuild_gain.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "filter/accuracy.h"
#include "filter/allocation/filter_keys.h"
#include "filter/allocation/run_allocation.h"
#include "filter/allocation/table_site.h"
#include "filter/cache_model/cache_reads.h"
#include "filter/encodings.h"
#include "filter/filter_options.h"
#include "filter/plan/cache_budget.h"
#include "filter/plan/cache_plan_memo.h"
#include "filter/plan/table_choice.h"
#include "filter/plan/tables_against_plan.h"
#include "gtest/gtest.h"
#include "tests/plan_test_util.h"

namespace sstfilter {
namespace {

constexpr double kBuiltBits = 10;

// L1-L3 of 100,000, 1M and 10M keys, every filter built at kBuiltBits per
// key (or none at `bare_level`).
TreeRuns BuiltTree(int bare_level = 0) { return ThreeLevelTree(kBuiltBits, bare_level); }

// Each table of `level` in `runs`, built with `built` bits and planned
// `planned`.
std::vector<TableAgainstPlan> TablesOf(const TreeRuns& runs, int level, double built,
                                       double planned) {
  std::vector<TableAgainstPlan> tables;
  for (uint64_t i = 0; i < runs.levels[level].tables; ++i) {
    tables.push_back({1000 * static_cast<uint64_t>(level) + i, level, 100000, 8e6, built, planned});
  }
  return tables;
}

double FpAt(double bits) { return CacheLocalFpAt(bits); }

// BuiltTree's blocks, laid out here: every filter at kBuiltBits (one
// 4 KiB partition per 4 KiB of filter), `bare_level` without one.
std::vector<RunBlocks> BlocksByHand(int bare_level) {
  std::vector<RunBlocks> blocks;
  for (int level = 1; level <= 3; ++level) {
    RunBlocks b;
    b.keys = 10000 * std::pow(10, level);
    b.data_blocks = b.keys / 35, b.data_bytes = 4096 * b.data_blocks;
    b.index_blocks = b.data_blocks / 120, b.index_bytes = 4096 * b.index_blocks;
    if (level != bare_level) {
      b.filter_bytes = b.keys * kBuiltBits / 8;
      b.filter_blocks = std::ceil(b.filter_bytes / 4096);
      b.fp_rate = FpAt(kBuiltBits);
    }
    blocks.push_back(b);
  }
  return blocks;
}

// Every Get finds its key, in a cache of a quarter of the filters: the
// bottom level's filters, built at 10 bits per key, cost more than they
// save (the plan drops them). Rebuilding the level saves what the model
// says the bottom without filters saves, shared by its tables.
TEST(RebuildGainTest, APresentKeyWorkloadRebuildsTheBottomWithoutFilters) {
  const TreeRuns runs = BuiltTree();
  const auto tables = TablesOf(runs, 3, kBuiltBits, 0);
  const std::vector<TableRebuild> gains = RebuildGains(CacheAware(1), runs, Cache(4), tables);
  ASSERT_EQ(gains.size(), tables.size());
  CacheWorkload workload{4 * kTestMib, 1, CacheWorkload::kDefaultHighPriRatio};
  const double expected = PredictReads(BlocksByHand(0), workload).total() -
                          PredictReads(BlocksByHand(3), workload).total();
  ASSERT_GT(expected, 0.05);
  double saving = 0;
  for (const TableRebuild& gain : gains) {
    EXPECT_NEAR(gain.saving, gains[0].saving, 1e-12);
    EXPECT_EQ(gain.cost_bytes, 2 * 8e6);
    saving += gain.saving;
  }
  EXPECT_NEAR(saving, expected, 0.02 * expected);
}

// The reverse: absent keys, and a bottom level built without filters (a
// plan for present keys); filters there save its index and data reads.
TEST(RebuildGainTest, AnAbsentKeyWorkloadRebuildsABareBottomWithFilters) {
  const TreeRuns runs = BuiltTree(/*bare_level=*/3);
  const auto tables = TablesOf(runs, 3, 0, kBuiltBits);
  const std::vector<TableRebuild> gains = RebuildGains(CacheAware(0), runs, Cache(64), tables);
  ASSERT_EQ(gains.size(), tables.size());
  CacheWorkload workload{64 * kTestMib, 0, CacheWorkload::kDefaultHighPriRatio};
  const double expected = PredictReads(BlocksByHand(3), workload).total() -
                          PredictReads(BlocksByHand(0), workload).total();
  ASSERT_GT(expected, 0.5);
  EXPECT_NEAR(gains[0].saving * static_cast<double>(gains.size()), expected, 0.02 * expected);
}

// L3 half moved to the plan by the loop (its filters dropped for present
// keys: 50 tables rewritten without one, 50 left at kBuiltBits).
TreeRuns HalfMovedTree(std::vector<TableAgainstPlan>* tables) {
  TreeRuns runs = BuiltTree();
  RunCensus& bottom = runs.levels[3];
  bottom.fixed_filter_bits /= 2;
  bottom.unfiltered_keys = bottom.keys / 2;
  *tables = TablesOf(runs, 3, kBuiltBits, 0);
  for (size_t i = 0; i < tables->size() / 2; ++i) (*tables)[i].built_bits = 0;
  return runs;
}

// Under way, a level's move is weighed whole: its rest is credited with
// the saving of the level filtered against the level bare (laid out by
// hand, not the blend the model weighs a half-moved level as), shared by
// all its keys; not under way, or under way the other way, with what the
// rest alone saves. Weighed
// whole, a move that saves too little is not carried on, nor one whose
// rest adds reads.
TEST(RebuildGainTest, ALevelsMoveOnceBegunIsWeighedWhole) {
  std::vector<TableAgainstPlan> tables;
  const TreeRuns runs = HalfMovedTree(&tables);
  CacheWorkload workload{16 * kTestMib, 1, CacheWorkload::kDefaultHighPriRatio};
  const double whole = PredictReads(BlocksByHand(0), workload).total() -
                       PredictReads(BlocksByHand(3), workload).total();
  ASSERT_GT(whole, 0.1);
  const auto carried =
      RebuildGains(CacheAware(1), runs, Cache(16), tables, /*under_way=*/{{3, true}});
  ASSERT_EQ(carried.size(), tables.size() / 2);
  for (const TableRebuild& gain : carried) {
    EXPECT_EQ(gain.table.built_bits, kBuiltBits);
    EXPECT_NEAR(gain.saving * static_cast<double>(tables.size()), whole, 0.005 * whole);
  }
  const auto rest = RebuildGains(CacheAware(1), runs, Cache(16), tables);
  ASSERT_EQ(rest.size(), tables.size() / 2);
  EXPECT_GT(std::abs(rest[0].saving - carried[0].saving), 0.02 * carried[0].saving);
  // A move the other way under way (the plan flipped since): the rest is
  // weighed as a level not under way (the loop makes it wait).
  const auto flipped = RebuildGains(CacheAware(1), runs, Cache(16), tables, {{3, false}});
  ASSERT_EQ(flipped.size(), rest.size());
  EXPECT_EQ(flipped[0].saving, rest[0].saving);
  // Half found, at 6 MiB: the rest alone saves the margin, the whole move
  // (the level filtered against bare) does not.
  workload = {6 * kTestMib, 0.5, CacheWorkload::kDefaultHighPriRatio};
  const double filtered = PredictReads(BlocksByHand(0), workload).total();
  ASSERT_LT(filtered - PredictReads(BlocksByHand(3), workload).total(), kRebuildMargin * filtered);
  EXPECT_EQ(RebuildGains(CacheAware(0.5), runs, Cache(6), tables).size(), tables.size() / 2);
  EXPECT_TRUE(RebuildGains(CacheAware(0.5), runs, Cache(6), tables, {{3, true}}).empty());
  // Absent keys: dropping the rest's filters adds reads.
  EXPECT_TRUE(RebuildGains(CacheAware(0), runs, Cache(16), tables, {{3, true}}).empty());
}

// Tables within kOffPlanBits of the plan, and tables of a level the tree
// does not hold, are not listed: nothing is rewritten for drift.
TEST(RebuildGainTest, TablesOnThePlanAreLeftAlone) {
  const TreeRuns runs = BuiltTree();
  EXPECT_TRUE(
      RebuildGains(CacheAware(0), runs, Cache(4), TablesOf(runs, 3, kBuiltBits, kBuiltBits - 0.2))
          .empty());
  EXPECT_TRUE(
      RebuildGains(CacheAware(0), runs, Cache(4), {{7, 5, 100000, 8e6, kBuiltBits, 0}}).empty());
  EXPECT_FALSE(OffPlan({1, 3, 100000, 8e6, kBuiltBits, kBuiltBits + 0.2}));
  EXPECT_TRUE(OffPlan({1, 3, 100000, 8e6, kBuiltBits, kBuiltBits + 0.3}));
  EXPECT_TRUE(OffPlan({1, 3, 100000, 8e6, kBuiltBits, kBuiltBits - 0.3}));
  EXPECT_TRUE(OffPlan({1, 3, 100000, 8e6, 0.5, 0}));
  EXPECT_TRUE(OffPlan({1, 3, 100000, 8e6, 0, 0.5}));
  EXPECT_FALSE(OffPlan({1, 3, 1, 8e3, 140, 4}));  // A table of one key: all overhead.
  EXPECT_FALSE(OffPlan({1, 3, 1024, 8e4, 5.45, 5}));  // A quarter bit of overhead a key.
  EXPECT_TRUE(OffPlan({1, 3, 1024, 8e4, 5.55, 5}));
}

// A table planned by its range's share is off its plan past a band that
// narrows with the sampled Gets the share rests on: 1.5 bits a key with
// few, down to kOffPlanBits once its share is known within a few percent.
TEST(RebuildGainTest, ARangePlannedTablesBandNarrowsWithItsSampledGets) {
  EXPECT_DOUBLE_EQ(RangeOffPlanBits(0), kRangeOffPlanBits);
  EXPECT_DOUBLE_EQ(RangeOffPlanBits(4), kRangeOffPlanBits);
  EXPECT_NEAR(RangeOffPlanBits(100), 0.624, 1e-9);
  EXPECT_DOUBLE_EQ(RangeOffPlanBits(1e6), kOffPlanBits);
  TableAgainstPlan table{1, 3, 100000, 8e6, kBuiltBits, kBuiltBits + 1, /*share=*/0.2};
  EXPECT_FALSE(OffPlan(table)) << "no samples said: the widest band";
  table.sampled = 10;
  EXPECT_FALSE(OffPlan(table));
  table.sampled = 100;
  EXPECT_TRUE(OffPlan(table));
  table.built_bits = kBuiltBits + 0.6;
  EXPECT_FALSE(OffPlan(table));
  table.sampled = 10000;
  table.built_bits = kBuiltBits + 1.3;
  EXPECT_TRUE(OffPlan(table)) << "its share known to 1%";
  table.built_bits = kBuiltBits + 1.2;
  EXPECT_FALSE(OffPlan(table));
}

// Where the cache holds every block, no filter changes what a Get reads
// from the device: a level off the plan reads as the plan's (within
// kRebuildMargin), and nothing is worth a rewrite.
TEST(RebuildGainTest, WhereTheCacheHoldsEverythingNoRewriteSavesAnything) {
  const TreeRuns runs = BuiltTree();
  EXPECT_TRUE(
      RebuildGains(CacheAware(1), runs, Cache(4096), TablesOf(runs, 3, kBuiltBits, 0)).empty());
  EXPECT_TRUE(
      RebuildGains(CacheAware(0), runs, Cache(4096), TablesOf(runs, 2, kBuiltBits, 14)).empty());
}

// The payback rule: a rebuild is worth it when the reads it saves over
// kPaybackHorizon at the Get rate, a block each, outweigh the bytes it
// reads and writes; the most saving per byte first; one that adds reads
// never.
TEST(RebuildGainTest, RebuildsPayBackWithinTheHorizonMostSavingPerByteFirst) {
  const double horizon = static_cast<double>(kPaybackHorizon.count());
  auto gain = [](uint64_t number, double saving, double cost) {
    TableRebuild g;
    g.table.number = number;
    g.saving = saving, g.cost_bytes = cost;
    return g;
  };
  const std::vector<TableRebuild> gains = {gain(1, 0.01, 1e8), gain(2, 0.01, 5e7),
                                           gain(3, -0.5, 1e6), gain(4, 0.03, 1e8)};
  // At this rate, table 1 saves 0.01 * rate * horizon * 4096 = 2 * its cost.
  const double rate = 2 * 1e8 / (0.01 * horizon * kSavedReadBytes);
  const std::vector<TableRebuild> worth = RebuildsWorthIt(gains, rate);
  ASSERT_EQ(worth.size(), 3u);
  EXPECT_EQ(worth[0].table.number, 4u);  // Saves 6 times its cost.
  EXPECT_EQ(worth[1].table.number, 2u);  // 4 times.
  EXPECT_EQ(worth[2].table.number, 1u);  // Twice.
  EXPECT_EQ(RebuildsWorthIt(gains, rate / 3).size(), 2u);
  EXPECT_EQ(RebuildsWorthIt(gains, rate / 5).size(), 1u);
  EXPECT_TRUE(RebuildsWorthIt(gains, rate / 6.01).empty());
  EXPECT_TRUE(RebuildsWorthIt(gains, 0).empty());
}

// The DB's statistics count fewer filter misses than the tables' sampled
// spread gives (a tenth), so the plan's workload gathers each table's Gets
// (spread_fit.h); that fit moves with the filters a rewrite changes. A bare
// bottom level whose filters save reads under the fitted spread but not
// under the sampled one is not rewritten; where both say they save, the
// saving counted is the smaller.
TEST(RebuildGainTest, ALevelIsRewrittenOnlyWhereTheSampledAndFittedSpreadsAgree) {
  auto saving = [](const CacheWorkload& workload) {
    return PredictReads(BlocksByHand(3), workload).total() -
           PredictReads(BlocksByHand(0), workload).total();
  };
  for (const double hit : {0.5, 0.0}) {
    TreeRuns runs = BuiltTree(/*bare_level=*/3);
    runs.traffic = BottomTraffic([](int i) { return i == 0 ? 0.02 : 0.01; });
    CachePlan base;
    const CacheWorkload sampled = PlanWorkload(CacheAware(hit), runs, Cache(4), &base);
    const double filter_misses = PredictReads(BlocksByHand(3), sampled).filter;
    runs.observed_misses = MissWindow{GetReads{0.1 * filter_misses, 0, 0}};
    const CacheWorkload fitted = PlanWorkload(CacheAware(hit), runs, Cache(4), &base);
    ASSERT_LT(base.hot_width, 0.1) << hit;
    const double today = PredictReads(BlocksByHand(3), fitted).total();
    ASSERT_GT(saving(fitted), 0.2 * today) << hit;
    const auto gains =
        RebuildGains(CacheAware(hit), runs, Cache(4), TablesOf(runs, 3, 0, kBuiltBits));
    if (hit == 0.5) {
      ASSERT_LT(saving(sampled), 0) << "the sampled spread: the filters add reads";
      EXPECT_TRUE(gains.empty());
    } else {
      ASSERT_GT(saving(sampled), 0.2 * PredictReads(BlocksByHand(3), sampled).total());
      ASSERT_EQ(gains.size(), 100u);
      const double least = std::min(saving(sampled), saving(fitted));
      EXPECT_NEAR(gains[0].saving * 100, least, 0.02 * least);
    }
  }
}

// Nothing is rewritten while the share of Gets found is assumed (not
// stated, not told by the DB's Gets): a rewrite for the plan made before
// anything is known would be undone once the Gets tell. Told by the Gets
// (TreeRuns::hit_share), the same tables are rewritten.
TEST(RebuildGainTest, NothingIsRewrittenWhileTheShareIsAssumed) {
  FilterOptions options = CacheAware(0);
  options.per_level.hit_share.reset();
  TreeRuns runs = BuiltTree(/*bare_level=*/3);
  const auto tables = TablesOf(runs, 3, 0, kBuiltBits);
  EXPECT_TRUE(RebuildGains(options, runs, Cache(64), tables).empty());
  for (const double told : {0.0, kAssumedHitShare}) {
    runs.hit_share = told;
    EXPECT_EQ(RebuildGains(options, runs, Cache(64), tables).size(), tables.size()) << told;
  }
}

// The setting (Bloom-equivalent bits per key) today's plan gives a table
// at L3 of BuiltTree with every run free, at `cache`, for a filter of any
// count of keys (null: no filter).
FilterSetting PlannedSettingRule(const FilterOptions& resolved, const CacheSite& cache,
                                 CachePlanMemo* plans) {
  TreeRuns free_runs = BuiltTree();
  for (RunCensus& run : free_runs.levels) {
    run.fixed_keys = run.fixed_filter_bits = run.unfiltered_keys = 0;
  }
  TableSite site;
  site.level = 3, site.bottommost = true, site.entries = 100000;
  const TableChoice choice =
      ChooseForSite(resolved, site, std::make_shared<const TreeRuns>(free_runs), &cache, plans);
  return choice.no_filter ? nullptr : FilterSettingOf(choice);
}

// That setting for a filter of 100,000 keys.
double PlannedSetting(const FilterOptions& resolved, const CacheSite& cache, CachePlanMemo* plans) {
  const FilterSetting setting = PlannedSettingRule(resolved, cache, plans);
  EXPECT_NE(setting, nullptr);
  if (setting == nullptr) return 0;
  FilterKeys keys;
  keys.entries = 100000;
  return setting(keys);
}

// cache_aware in banded, resolved, all Gets absent.
absl::StatusOr<FilterOptions> BandedCacheAware() {
  FilterOptions options = CacheAware(0.0);
  options.encoding = EncodingId::kBanded;
  return ResolveFilterOptions(options);
}

// Cache(64) with filters in partitions of `bytes`, cut with the index's or not.
CacheSite PartitionedCache(double bytes, bool coupled) {
  CacheSite cache = Cache(64);
  cache.partition_bytes = bytes;
  cache.partitions_coupled = coupled;
  return cache;
}

// A table built as today's plan builds it (its level's setting, through
// the encoding's own builder) is on the plan, whatever the encoding spends
// for its setting: banded spends about 0.71 bits per Bloom-equivalent bit,
// and the plan's bits were once the setting, so that every banded table
// built to the plan looked 2-3 bits short of it and was rewritten in vain.
TEST(TablesAgainstPlanTest, ATableBuiltAsPlannedIsOnThePlan) {
  for (const EncodingId encoding : {EncodingId::kBanded, EncodingId::kCacheLocal}) {
    FilterOptions options = CacheAware(0.0);
    options.encoding = encoding;
    const absl::StatusOr<FilterOptions> resolved = ResolveFilterOptions(options);
    ASSERT_TRUE(resolved.ok()) << resolved.status();
    CacheSite cache = Cache(64);
    cache.partitioned = false;  // Built as one filter, as a whole-filter table is.
    CachePlanMemo plans;
    const double bits = PlannedSetting(*resolved, cache, &plans);
    ASSERT_GT(bits, 0);
    FilterKeys keys;
    keys.entries = 100000;
    const size_t bytes = encoding == EncodingId::kBanded
                             ? PlanFilter<BandedEncoding>(keys.entries, bits).filter_bytes
                             : PlanFilter<CacheLocalEncoding>(keys.entries, bits).filter_bytes;
    const BuiltTable table{7, 3, 100000, 8e6, 8.0 * static_cast<double>(bytes)};
    const std::vector<TableAgainstPlan> against =
        TablesAgainstPlan(*resolved, std::make_shared<const TreeRuns>(BuiltTree()), &cache, &plans,
                          TableHost{}, {table});
    ASSERT_EQ(against.size(), 1u);
    EXPECT_NEAR(against[0].planned_bits, against[0].built_bits, 0.05)
        << EncodingName(encoding) << " at a setting of " << bits;
    EXPECT_FALSE(OffPlan(against[0])) << EncodingName(encoding);
  }
}

// Under optimize_filters_for_hits RocksDB writes a table without a filter
// where nothing below its level holds a key of its range: the deepest
// level's tables and those above it past every deeper table's range. They
// are planned without one: on the plan as built bare, off it with a filter
// built while a table lay below (a rewrite frees it). A table whose range
// is not known, or ranges not in bytewise order, tell nothing.
TEST(TablesAgainstPlanTest, TablesTheHostWritesWithoutAFilterArePlannedWithoutOne) {
  const absl::StatusOr<FilterOptions> resolved = ResolveFilterOptions(CacheAware(0.0));
  ASSERT_TRUE(resolved.ok()) << resolved.status();
  CacheSite cache = Cache(64);
  cache.partitioned = false;
  auto table = [](uint64_t number, int level, std::string lo, std::string hi) {
    BuiltTable t{number, level, 100000, 8e6, 0};
    t.has_range = true, t.smallest = std::move(lo), t.largest = std::move(hi);
    return t;
  };
  BuiltTable unknown_range{6, 1, 100000, 8e6, 0};
  const std::vector<BuiltTable> tables = {
      table(1, 1, "a", "c"),  // Over L3's [a, m].
      table(2, 2, "m", "p"),  // Touches L3's [a, m] at m.
      table(3, 1, "x", "z"),  // Nothing below.
      table(4, 3, "a", "m"),  // The deepest level.
      table(5, 2, "n", "w"),  // Nothing below: L1's [x, z] is above it.
      unknown_range};
  // The tables planned without a filter.
  auto bare = [&](const std::vector<BuiltTable>& in, bool filters_for_hits, bool bytewise) {
    TableHost host;
    host.deepest_unfiltered = filters_for_hits, host.bytewise = bytewise;
    CachePlanMemo plans;
    std::set<uint64_t> numbers;
    for (const TableAgainstPlan& t : TablesAgainstPlan(
             *resolved, std::make_shared<const TreeRuns>(BuiltTree()), &cache, &plans, host, in)) {
      if (t.planned_bits == 0) numbers.insert(t.number);
    }
    return numbers;
  };
  EXPECT_EQ(bare(tables, false, true), (std::set<uint64_t>{}));
  EXPECT_EQ(bare(tables, true, true), (std::set<uint64_t>{3, 4, 5}));
  // A deeper table of unknown range may hold any key: nothing above it is
  // taken for bottommost. Nor with a comparator whose order is not the
  // ranges' bytes.
  std::vector<BuiltTable> with_unknown = tables;
  with_unknown.push_back(BuiltTable{7, 3, 100000, 8e6, 0});
  EXPECT_EQ(bare(with_unknown, true, true), (std::set<uint64_t>{4, 7}));
  EXPECT_EQ(bare(tables, true, false), (std::set<uint64_t>{4}));
  // Bare, they are on the plan; one built with a filter is off it.
  CachePlanMemo plans;
  TableHost host;
  host.deepest_unfiltered = true;
  std::vector<BuiltTable> filtered = tables;
  filtered[2].filter_bits = 10 * filtered[2].entries;  // #3, L1 [x, z].
  for (const TableAgainstPlan& t :
       TablesAgainstPlan(*resolved, std::make_shared<const TreeRuns>(BuiltTree()), &cache, &plans,
                         host, filtered)) {
    if (t.number == 3 || t.number == 4 || t.number == 5) {
      EXPECT_EQ(OffPlan(t), t.number == 3) << "#" << t.number;
    }
  }
}

// A partitioned table built to the plan is on it: each partition is a
// filter of its own keys (RocksDB cuts them at partition_bytes of filter,
// and with the index's partitions where the two are coupled), and a
// smaller filter spends more bits a key than the whole table's would.
// Counted as one filter, a banded table of 69,000 keys in 18 partitions
// looked 0.3 bits a key above its plan and was rewritten at every open.
TEST(TablesAgainstPlanTest, APartitionedTableBuiltAsPlannedIsOnThePlan) {
  const absl::StatusOr<FilterOptions> resolved = BandedCacheAware();
  ASSERT_TRUE(resolved.ok()) << resolved.status();
  const CacheSite cache = PartitionedCache(2048, true);
  CachePlanMemo plans;
  const double bits = PlannedSetting(*resolved, cache, &plans);
  ASSERT_GT(bits, 0);
  // Built as RocksDB cuts it: partitions of equal keys, as many as the
  // index's (40) or as the filter's bytes need, whichever is more.
  for (const double index_partitions : {0.0, 40.0}) {
    size_t parts = 1;
    while (PlanFilter<BandedEncoding>(100000 / parts, bits).filter_bytes > 2048 ||
           parts < index_partitions) {
      ++parts;
    }
    const double bytes =
        static_cast<double>(parts * PlanFilter<BandedEncoding>(100000 / parts, bits).filter_bytes);
    const BuiltTable table{7, 3, 100000, 8e6, 8 * bytes, index_partitions};
    const std::vector<TableAgainstPlan> against =
        TablesAgainstPlan(*resolved, std::make_shared<const TreeRuns>(BuiltTree()), &cache, &plans,
                          TableHost{}, {table});
    ASSERT_EQ(against.size(), 1u);
    EXPECT_NEAR(against[0].planned_bits, against[0].built_bits, 0.05)
        << parts << " partitions at a setting of " << bits;
    EXPECT_FALSE(OffPlan(against[0])) << parts << " partitions";
  }
}

// Where RocksDB cuts filter partitions apart from the index's (its default
// from 10), it asks the builder, at its nominal setting, how many keys fit
// metadata_block_size less block_size_deviation (10%), cuts a partition at
// that many (the last holds the rest), each at the setting for its own
// keys, and enters each in the partition index under its last user key in
// full; its filter_size counts that index. A table so built is on the plan.
// Counted as partitions of filter bytes alone, a table of 1,260 keys built
// so sat 1.4 bits a key above its plan and was rewritten at every open.
TEST(TablesAgainstPlanTest, ATableCutApartFromItsIndexIsOnThePlan) {
  const absl::StatusOr<FilterOptions> resolved = BandedCacheAware();
  ASSERT_TRUE(resolved.ok()) << resolved.status();
  const CacheSite cache = PartitionedCache(256, false);
  CachePlanMemo plans;
  const FilterSetting setting = PlannedSettingRule(*resolved, cache, &plans);
  ASSERT_NE(setting, nullptr);
  const BandedEncoding::Builder nominal(Accuracy(*resolved).NominalBitsPerKey(EncodingId::kBanded));
  const size_t per_partition = nominal.MaxEntriesForSize((256 * 90 + 99) / 100);
  ASSERT_GT(per_partition, 0u);
  constexpr double kUserKeyBytes = 16;
  for (const size_t entries : {size_t{100}, size_t{1260}, size_t{20000}}) {
    double bytes = 4;  // The partition index's count of restarts.
    for (size_t left = entries; left > 0;) {
      FilterKeys keys;
      keys.entries = std::min(per_partition, left);
      bytes +=
          static_cast<double>(PlanFilter<BandedEncoding>(keys.entries, setting(keys)).filter_bytes);
      // Its index entry: the key, two lengths, a handle of 3 + 2 varint
      // bytes, a restart offset.
      bytes += kUserKeyBytes + 2 + 5 + 4;
      left -= keys.entries;
    }
    BuiltTable table{7, 3, static_cast<double>(entries), 8e6, 8 * bytes, 0};
    table.user_key_bytes = kUserKeyBytes;
    const std::vector<TableAgainstPlan> against =
        TablesAgainstPlan(*resolved, std::make_shared<const TreeRuns>(BuiltTree()), &cache, &plans,
                          TableHost{}, {table});
    ASSERT_EQ(against.size(), 1u);
    EXPECT_NEAR(against[0].planned_bits, against[0].built_bits, 0.02) << entries << " keys";
    EXPECT_FALSE(OffPlan(against[0])) << entries << " keys";
  }
}

// The filter misses the DB's statistics count are of the filters its
// tables hold. TablesAgainstPlan plans each level with every run free (at
// the uniform setting where the tree as built has none), yet the spread is
// fit to the tree as built: misses that the built tree's model predicts
// are no reason to sharpen the spread, though the free tree's filters
// would miss more. (Fit to the free tree, a copy of a loaded DB taught
// uniform Gets planned its bottom level for skew that was not there, and
// its plan flipped as rewrites changed the tree.)
TEST(TablesAgainstPlanTest, TheSpreadIsFitToTheTreeAsBuilt) {
  const absl::StatusOr<FilterOptions> options = ResolveFilterOptions(CacheAware(0.5));
  ASSERT_TRUE(options.ok()) << options.status();
  const CacheSite cache = Cache(4);
  TreeRuns runs = BuiltTree(/*bare_level=*/3);
  runs.traffic = BottomTraffic([](int i) { return i < 50 ? 0.015 : 0.005; });
  CachePlan sampled;
  const CacheWorkload workload = PlanWorkload(*options, runs, cache, &sampled);
  // A little over what the built tree's blocks, laid out by hand, miss.
  runs.observed_misses =
      MissWindow{GetReads{1.02 * PredictReads(BlocksByHand(3), workload).filter, 0, 0}};
  ASSERT_EQ(SpreadFitOf(*options, runs, cache), kUnsharpened);
  TreeRuns free = runs;
  for (RunCensus& run : free.levels) run.fixed_keys = run.fixed_filter_bits = 0;
  for (RunCensus& run : free.levels) run.unfiltered_keys = 0;
  ASSERT_LT(SpreadFitOf(*options, free, cache), kUnsharpened)
      << "the free tree's filters miss more than the DB counted";

  std::vector<BuiltTable> tables;
  for (const TableAgainstPlan& t : TablesOf(runs, 3, 0, 0)) {
    tables.push_back({t.number, 3, t.entries, t.file_bytes, 0});
  }
  CachePlanMemo plans;
  const std::vector<TableAgainstPlan> against = TablesAgainstPlan(
      *options, std::make_shared<const TreeRuns>(runs), &cache, &plans, TableHost{}, tables);
  ASSERT_TRUE(plans.Last().has_value());
  EXPECT_EQ(plans.Last()->hot_width, kUnsharpened);
  TreeRuns unmeasured = runs;
  unmeasured.observed_misses.reset();
  CachePlanMemo unmeasured_plans;
  const std::vector<TableAgainstPlan> as_sampled =
      TablesAgainstPlan(*options, std::make_shared<const TreeRuns>(unmeasured), &cache,
                        &unmeasured_plans, TableHost{}, tables);
  ASSERT_EQ(against.size(), as_sampled.size());
  for (size_t i = 0; i < against.size(); ++i) {
    EXPECT_EQ(against[i].planned_bits, as_sampled[i].planned_bits) << i;
  }
}

}  // namespace
}  // namespace sstfilter
