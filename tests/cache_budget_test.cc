// The cache-aware plan (filter/plan/cache_budget.h) on hand-made
// trees and caches, without a database.
#include "filter/plan/cache_budget.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "filter/allocation/run_allocation.h"
#include "filter/allocation/tree_traffic.h"
#include "filter/cache_model/cache_reads.h"
#include "filter/cache_model/traffic_popularity.h"
#include "filter/plan/plan_text.h"
#include "filter/plan/table_choice.h"
#include "gtest/gtest.h"
#include "tests/plan_test_util.h"

namespace sstfilter {
namespace {

constexpr double kMib = kTestMib;

// L1-L3 of 100,000, 1M and 10M keys in 1, 10 and 100 tables; 35 entries a
// 4 KiB data block, 120 data blocks an index partition of 4 KiB.
TreeRuns ThreeLevels() {
  TreeRuns runs;
  runs.levels.resize(4);
  const uint64_t keys[] = {0, 100000, 1000000, 10000000};
  for (int level = 1; level <= 3; ++level) {
    runs.levels[level] = RunCensus{keys[level], keys[level] / 100000, 0, 0, 1};
  }
  runs.blocks = TestBlockShape();
  return runs;
}

// The uniform setting's bits over the tree.
double UniformBits(const TreeRuns& runs) {
  double keys = 0;
  for (const RunCensus& run : runs.levels) keys += static_cast<double>(run.keys);
  return keys * EncodingRunModel(EncodingId::kCacheLocal, 1e6, 10).uniform_bits;
}

// A cache that holds every filter, index and the data: nothing to save, the
// most the options allow.
TEST(CacheBudgetTest, WhereEverythingFitsTheFiltersKeepTheirBits) {
  const TreeRuns runs = ThreeLevels();
  const CachePlan plan = PlanForCache(CacheAware(0.5), runs, Cache(4096));
  EXPECT_NEAR(plan.budget_bits, UniformBits(runs), 1e-3 * UniformBits(runs));
  EXPECT_EQ(plan.unfiltered_from, CachePlan::kAllFiltered);
  EXPECT_LT(plan.reads.total(), 1e-6);
}

// 13.9 MB of filters at 10 bits/key against a 9 MiB cache, absent Gets:
// filters that stay cached read fewer blocks than bigger ones that miss,
// and false positives cost two reads (an index partition and a data
// block), so the plan shrinks them to about what the cache holds.
TEST(CacheBudgetTest, FiltersThatCannotStayCachedGetFewerBits) {
  const TreeRuns runs = ThreeLevels();
  const CachePlan plan = PlanForCache(CacheAware(0), runs, Cache(9));
  EXPECT_LT(plan.budget_bits, 0.7 * UniformBits(runs));
  EXPECT_EQ(plan.unfiltered_from, CachePlan::kAllFiltered);
  EXPECT_LT(plan.filter_bytes, 9 * kMib);
  // No budget the plan could have taken reads less (each capped plan is the
  // best at or below its cap; the search stops within 0.1%).
  for (double fraction : {1.0, 0.8, 0.6, 0.5, 0.3, 0.1}) {
    FilterOptions capped = CacheAware(0);
    capped.per_level.budget_mb = fraction * UniformBits(runs) / 8 / kMib;
    const CachePlan other = PlanForCache(capped, runs, Cache(9));
    EXPECT_LE(plan.reads.total(), other.reads.total() * 1.001) << fraction;
  }
  // Its reads are the model's at its blocks.
  EXPECT_NEAR(PredictReads(plan.blocks, {9 * kMib, 0}).total(), plan.reads.total(), 1e-9);
}

// Where the host writes the deepest level without filters, every plan
// leaves it so, whatever the share of Gets found; with the blocks unknown
// too (an unfiltered level's reads not modelled, so none other is tried).
TEST(CacheBudgetTest, ADeepestLevelTheHostLeavesUnfilteredStaysSo) {
  TreeRuns runs = ThreeLevels();
  runs.deepest_unfiltered = true;
  for (double share : {0.0, 0.5, 1.0}) {
    const CachePlan plan = PlanForCache(CacheAware(share), runs, Cache(9));
    EXPECT_TRUE(plan.unfiltered_from == 3 || plan.unfiltered_from == 2) << share;
  }
  runs.blocks = BlockShape();
  EXPECT_EQ(PlanForCache(CacheAware(0), runs, Cache(4096)).unfiltered_from, 3);
}

// Gets that all find their key (mostly in L3) read the bottom's filter for
// nothing: it goes, as optimize_filters_for_hits would drop it.
TEST(CacheBudgetTest, PresentKeysLeaveTheBottomLevelUnfiltered) {
  const TreeRuns runs = ThreeLevels();
  const CachePlan plan = PlanForCache(CacheAware(1), runs, Cache(4));
  EXPECT_LE(plan.unfiltered_from, 3);
  EXPECT_EQ(plan.blocks.back().filter_blocks, 0);
  // Absent keys would pay the bottom's index and data blocks: it stays.
  EXPECT_EQ(PlanForCache(CacheAware(0), runs, Cache(4)).unfiltered_from,
            CachePlan::kAllFiltered);
}

// Without the tables' index and data blocks known, no level goes unfiltered
// (it would look free).
TEST(CacheBudgetTest, UnknownBlocksKeepEveryFilter) {
  TreeRuns runs = ThreeLevels();
  runs.blocks = BlockShape();
  EXPECT_EQ(PlanForCache(CacheAware(1), runs, Cache(4)).unfiltered_from, CachePlan::kAllFiltered);
}

// The share of Gets that find their key: the options' where they state
// one, else the census's (the DB's Gets), else the assumed half. The
// plan follows it: all found leaves the bottom unfiltered, none keeps it.
TEST(CacheBudgetTest, TheStatedHitShareOverTheObservedOne) {
  TreeRuns runs = ThreeLevels();
  FilterOptions unstated = CacheAware(0);
  unstated.per_level.hit_share.reset();
  CachePlan plan = PlanForCache(unstated, runs, Cache(4));
  EXPECT_EQ(plan.hit_share_from, HitShareFrom::kAssumed);
  EXPECT_EQ(plan.hit_share, kAssumedHitShare);

  runs.hit_share = 1;
  plan = PlanForCache(unstated, runs, Cache(4));
  EXPECT_EQ(plan.hit_share_from, HitShareFrom::kObserved);
  EXPECT_EQ(plan.hit_share, 1);
  EXPECT_LE(plan.unfiltered_from, 3);

  plan = PlanForCache(CacheAware(0), runs, Cache(4));
  EXPECT_EQ(plan.hit_share_from, HitShareFrom::kStated);
  EXPECT_EQ(plan.hit_share, 0);
  EXPECT_EQ(plan.unfiltered_from, CachePlan::kAllFiltered);
}

// A plan's reads at each share of Gets finding their key over the best
// plan's for that share (each made with the share stated).
double WorstRatio(const CachePlan& plan, const TreeRuns& runs, const CacheSite& cache) {
  double worst = 0;
  for (const double share : kRobustHitShares) {
    const CachePlan best = PlanForCache(CacheAware(share), runs, cache);
    const CacheWorkload workload{cache.capacity_bytes, share, cache.high_pri_ratio};
    worst = std::max(worst, PredictReads(plan.blocks, workload).total() / best.reads.total());
  }
  return worst;
}

// Before any share is known (a bulk load, the first fill), the plan is
// the one robust over every share: on a tree whose filters do not fit the
// cache, its worst ratio to each share's best plan (1.36) is well below
// that of the plan for the assumed half (2.06: its bottom level unfiltered,
// when no Get finds its key), and it says that ratio.
TEST(CacheBudgetTest, BeforeAnyShareIsKnownThePlanIsRobustOverEvery) {
  const TreeRuns runs = ThreeLevels();
  FilterOptions unstated = CacheAware(0);
  unstated.per_level.hit_share.reset();
  const CachePlan robust = PlanForCache(unstated, runs, Cache(4));
  const CachePlan half = PlanForCache(CacheAware(kAssumedHitShare), runs, Cache(4));
  const double robust_worst = WorstRatio(robust, runs, Cache(4));
  const double half_worst = WorstRatio(half, runs, Cache(4));
  std::printf("worst ratio to each share's best plan: robust %.3f, planned for half %.3f\n",
              robust_worst, half_worst);
  EXPECT_LT(robust_worst, 0.75 * half_worst);
  EXPECT_NEAR(robust.robust_worst, robust_worst, 0.01 * robust_worst);
  EXPECT_EQ(half.robust_worst, 0) << "a plan for a stated share is not the robust one";
  EXPECT_EQ(robust.hit_share_from, HitShareFrom::kAssumed);
}

// One unfiltered level's budgets: of those reading within 1% of the
// fewest, the largest; one beyond the tie, or a smaller one within it,
// leaves the fewest.
TEST(CacheBudgetTest, BudgetsThatReadAlikeTakeTheMostFilters) {
  auto plan = [](double budget, double reads) {
    CachePlan p;
    p.budget_bits = budget;
    p.reads.filter = reads;
    return p;
  };
  const std::vector<CachePlan> tried = {plan(40, 0.100), plan(41, 0.1004), plan(38, 0.0995),
                                        plan(45, 0.103), plan(39, 0.0997)};
  EXPECT_EQ(MostFiltersAmongTies(tried, plan(38, 0.0995)).budget_bits, 41);
  EXPECT_EQ(MostFiltersAmongTies({plan(45, 0.103)}, plan(38, 0.0995)).budget_bits, 38)
      << "beyond the tie, the fewest reads stand";
  EXPECT_EQ(MostFiltersAmongTies({plan(30, 0.0996)}, plan(38, 0.0995)).budget_bits, 38)
      << "a tie of fewer filters does not move it";
}

// A plan per unfiltered level: of those reading within 1% of the fewest,
// the fewest filter bytes (as measured on an 8M-key tree where the plan
// with none at L6, 0.46 MiB, and every level filtered, 4.31 MiB, read
// 1.461 and 1.458 by the model, and the tables followed whichever won).
TEST(CacheBudgetTest, PlansThatReadAlikeTakeTheFewestBytes) {
  auto plan = [](int unfiltered_from, double reads, double mib) {
    CachePlan p;
    p.unfiltered_from = unfiltered_from;
    p.reads.data = reads;
    p.filter_bytes = mib * kMib;
    return p;
  };
  EXPECT_EQ(ChooseAmongPlans({plan(CachePlan::kAllFiltered, 1.458, 4.31), plan(6, 1.461, 0.46),
                              plan(5, 1.600, 0.10)})
                .unfiltered_from,
            6);
  // Beyond the tie, fewer reads win whatever their bytes.
  EXPECT_EQ(ChooseAmongPlans({plan(CachePlan::kAllFiltered, 1.40, 4.31), plan(6, 1.461, 0.46)})
                .unfiltered_from,
            CachePlan::kAllFiltered);
  EXPECT_EQ(ChooseAmongPlans({plan(6, 1.0, 2)}).unfiltered_from, 6);
  // Where no plan reads more than a trace (everything cached), the first
  // (every level filtered) keeps the filters' CPU saving.
  EXPECT_EQ(ChooseAmongPlans({plan(CachePlan::kAllFiltered, 0.003, 4.31), plan(6, 0.002, 0.46)})
                .unfiltered_from,
            CachePlan::kAllFiltered);
}

// Gets that go nine in ten to a tenth of the keys (as the bottom level's
// tables saw them): the hot tenth's filter, index and data blocks stay
// cached, so the plan reads fewer blocks than the uniform one and
// keeps more filter bits at a cache that the uniform plan shrinks them for.
TEST(CacheBudgetTest, SkewedGetsArePlannedAsTheTablesSawThem) {
  TreeRuns runs = ThreeLevels();
  const auto traffic = BottomTraffic([](int i) { return i < 10 ? 0.09 : 0.1 / 90; });
  const CachePlan uniform = PlanForCache(CacheAware(0), runs, Cache(9));
  runs.traffic = traffic;
  const CachePlan skewed = PlanForCache(CacheAware(0), runs, Cache(9));
  CacheWorkload workload{9 * kMib, 0};
  workload.popularity = PopularityOf(*traffic);
  EXPECT_NEAR(PredictReads(skewed.blocks, workload).total(), skewed.reads.total(), 1e-9);
  EXPECT_LT(skewed.reads.total(), 0.5 * uniform.reads.total());
  EXPECT_GT(skewed.filter_bytes, 1.2 * uniform.filter_bytes);
}

// BuiltTreeWithAHotTable, but the DB's statistics count a tenth of the
// filter misses the model gives today's filters (ten bits a key) by that
// spread: the hot ranges inside the tables stay cached. The plan gathers
// each table's Gets until the model meets that count, and then keeps more
// filter bytes for absent Gets, as the hot filters stay cached at full
// size. With no count, or one above the model's, the spread is left as the
// tables say.
TEST(CacheBudgetTest, FewerFilterMissesThanTheSpreadGivesSharpenIt) {
  TreeRuns runs = BuiltTreeWithAHotTable();
  const CachePlan as_sampled = PlanForCache(CacheAware(0), runs, Cache(9));
  EXPECT_EQ(as_sampled.hot_width, kUnsharpened);
  runs.observed_misses = MissWindow{GetReads{10, 0, 0}};
  EXPECT_EQ(PlanForCache(CacheAware(0), runs, Cache(9)).hot_width, kUnsharpened)
      << "more misses than the model's: nothing to sharpen";
  runs.observed_misses = MissWindow{GetReads{0.1 * as_sampled.reads.filter, 0, 0}};
  const CachePlan sharpened = PlanForCache(CacheAware(0), runs, Cache(9));
  EXPECT_LT(sharpened.hot_width, 0.25);
  EXPECT_EQ(sharpened.spread_slices, as_sampled.spread_slices);
  EXPECT_GT(sharpened.filter_bytes, 1.2 * as_sampled.filter_bytes);
  EXPECT_LT(sharpened.reads.total(), as_sampled.reads.total());
}

// budget_mb caps the plan's budget.
TEST(CacheBudgetTest, BudgetMbCapsThePlan) {
  FilterOptions options = CacheAware(0.5);
  options.per_level.budget_mb = 0.5;
  const CachePlan plan = PlanForCache(options, ThreeLevels(), Cache(4096));
  EXPECT_LE(plan.budget_bits, 0.5 * 8 * kMib * (1 + 1e-9));
}

// Where automatic compactions are off, L0's tables stay as built (here
// five of 100,000 keys at 30 bits/key, thrice the uniform setting): the
// plan takes their filters as they are and sizes the levels on its
// budget less what they hold; where L0 is compacted, it is planned too
// (at the FP of about 20 bits/key).
TEST(CacheBudgetTest, WhereL0StaysThePlanTakesItAsBuilt) {
  TreeRuns runs = ThreeLevels();
  constexpr uint64_t kL0Keys = 100000;
  constexpr double kL0Bits = 30;
  for (int i = 0; i < 5; ++i) {
    runs.l0_tables.push_back(
        RunCensus{kL0Keys, 1, kL0Keys, static_cast<uint64_t>(kL0Bits * kL0Keys), 1});
  }
  runs.targets.l0_stays = true;
  const CachePlan plan = PlanForCache(CacheAware(0.5), runs, Cache(4096));
  ASSERT_EQ(plan.blocks.size(), 8u);  // Five L0 tables, then L1-L3.
  const double held_bytes = 5 * kL0Keys * kL0Bits / 8;
  double l0_bytes = 0, level_bytes = 0;
  for (size_t i = 0; i < plan.blocks.size(); ++i) {
    const RunBlocks& b = plan.blocks[i];
    if (i < 5) {
      EXPECT_NEAR(b.fp_rate, CacheLocalFpAt(kL0Bits, kL0Keys, kL0Keys), 0.05 * b.fp_rate) << i;
      l0_bytes += b.filter_bytes;
    } else {
      level_bytes += b.filter_bytes;
    }
  }
  EXPECT_NEAR(l0_bytes, held_bytes, 1e-6 * held_bytes);
  // The levels spend what the budget leaves them (to the allocation's 0.1%).
  EXPECT_NEAR(level_bytes * 8, plan.budget_bits - 8 * held_bytes, 2e-3 * plan.budget_bits);
  EXPECT_NEAR(plan.filter_bytes, l0_bytes + level_bytes, 1e-6 * plan.filter_bytes);
  // Compacted, L0's tables are planned at the levels' rate, not as built.
  runs.targets.l0_stays = false;
  const CachePlan compacted = PlanForCache(CacheAware(0.5), runs, Cache(4096));
  ASSERT_EQ(compacted.blocks.size(), 8u);
  EXPECT_GT(compacted.blocks[0].fp_rate, 3 * plan.blocks[0].fp_rate);
}

// A table's choice: the plan's budget for its filters, no filter where the
// plan leaves its level unfiltered, and the cache ignored without cache_aware.
TEST(CacheBudgetTest, TheTableChoiceFollowsThePlan) {
  auto runs = std::make_shared<const TreeRuns>(ThreeLevels());
  TableSite bottom;
  bottom.level = 3, bottom.bottommost = true;
  const CacheSite cache = Cache(4);
  EXPECT_TRUE(ChooseForSite(CacheAware(1), bottom, runs, &cache).no_filter);
  const TableChoice absent = ChooseForSite(CacheAware(0), bottom, runs, &cache);
  ASSERT_FALSE(absent.no_filter);
  ASSERT_TRUE(absent.fp_rule.has_value());
  FilterKeys keys;
  keys.entries = 100000;
  FilterOptions plain = CacheAware(0);
  plain.per_level.cache_aware = false;
  plain.per_level.hit_share.reset();
  const TableChoice uniform = ChooseForSite(plain, bottom, runs, &cache);
  EXPECT_FALSE(uniform.no_filter);
  EXPECT_LT(FilterSettingOf(absent)(keys), FilterSettingOf(uniform)(keys) - 1);
  EXPECT_TRUE(ChooseForSite(CacheAware(1), bottom, runs, nullptr).fp_rule.has_value());
  EXPECT_FALSE(ChooseForSite(CacheAware(1), bottom, runs, nullptr).no_filter);
}

// While the share of Gets found is assumed, a table gets the uniform
// setting at every level (no FP rule, a filter even where the plan would
// drop it), and its LOG line says so; a stated share or budget_mb gets
// the plan.
TEST(CacheBudgetTest, WhileTheShareIsAssumedTablesGetTheUniformSetting) {
  auto runs = std::make_shared<const TreeRuns>(ThreeLevels());
  const CacheSite cache = Cache(4);
  FilterOptions unstated = CacheAware(0);
  unstated.per_level.hit_share.reset();
  for (const int level : {1, 2, 3}) {
    TableSite site;
    site.level = level, site.bottommost = level == 3;
    const TableChoice choice = ChooseForSite(unstated, site, runs, &cache);
    EXPECT_FALSE(choice.no_filter) << "L" << level;
    EXPECT_FALSE(choice.fp_rule.has_value()) << "L" << level;
    EXPECT_EQ(FilterSettingOf(choice), nullptr) << "L" << level;
    ASSERT_TRUE(choice.plan.has_value());
    EXPECT_TRUE(choice.plan->uniform);
    EXPECT_EQ(choice.plan->plan.hit_share_from, HitShareFrom::kAssumed);
    EXPECT_NE(DescribePlan(*choice.plan).find("the uniform setting"), std::string::npos);
  }
  TableSite bottom;
  bottom.level = 3, bottom.bottommost = true;
  const TableChoice stated = ChooseForSite(CacheAware(kAssumedHitShare), bottom, runs, &cache);
  ASSERT_TRUE(stated.plan.has_value());
  EXPECT_FALSE(stated.plan->uniform);
  EXPECT_TRUE(stated.no_filter || stated.fp_rule.has_value());
  EXPECT_EQ(DescribePlan(*stated.plan).find("the uniform setting"), std::string::npos);
  FilterOptions budgeted = unstated;
  budgeted.per_level.budget_mb = 1;
  const TableChoice within = ChooseForSite(budgeted, bottom, runs, &cache);
  ASSERT_TRUE(within.plan.has_value());
  EXPECT_FALSE(within.plan->uniform);
  EXPECT_TRUE(within.no_filter || within.fp_rule.has_value());
}

}  // namespace
}  // namespace sstfilter
