// The cache-aware plans kept for the next tables of a tree
// (filter/plan/cache_plan_memo.h), on hand-made trees.
#include "filter/plan/cache_plan_memo.h"

#include <memory>

#include "filter/allocation/tree_runs.h"
#include "filter/plan/cache_budget.h"
#include "gtest/gtest.h"
#include "tests/plan_test_util.h"

namespace sstfilter {
namespace {

// A plan is kept for the next tree of the same shape, but not across a
// move of the spread's fit to the DB's misses: the same tree whose
// statistics' latest window counts a tenth of the filter misses (a cache
// that warmed up, Gets that gathered) is planned anew, sharpened; one
// whose window moved the fit by less than a tenth keeps its plan.
TEST(CachePlanMemoTest, ATreeIsPlannedAnewOnlyWhenTheSpreadsFitMoved) {
  TreeRuns runs = BuiltTreeWithAHotTable();
  const double unsharpened_misses = PlanForCache(CacheAware(0), runs, Cache(9)).reads.filter;
  runs.observed_misses = MissWindow{GetReads{10, 0, 0}};
  CachePlanMemo memo;
  const CachePlan cold = memo.PlanFor(CacheAware(0), std::make_shared<TreeRuns>(runs), 3, Cache(9));
  EXPECT_EQ(cold.hot_width, kUnsharpened);
  runs.observed_misses = MissWindow{GetReads{0.1 * unsharpened_misses, 0, 0}};
  const CachePlan sharpened =
      memo.PlanFor(CacheAware(0), std::make_shared<TreeRuns>(runs), 3, Cache(9));
  EXPECT_LT(sharpened.hot_width, 0.25);
  EXPECT_GT(sharpened.filter_bytes, 1.2 * cold.filter_bytes);
  // A window 5% off that one: planned alone it fits another width, within
  // a tenth of the kept plan's, so the memo keeps that plan.
  runs.observed_misses = MissWindow{GetReads{0.105 * unsharpened_misses, 0, 0}};
  const double own_width = PlanForCache(CacheAware(0), runs, Cache(9)).hot_width;
  ASSERT_NE(own_width, sharpened.hot_width);
  ASSERT_NEAR(own_width, sharpened.hot_width, 0.1 * sharpened.hot_width);
  EXPECT_EQ(memo.PlanFor(CacheAware(0), std::make_shared<TreeRuns>(runs), 3, Cache(9)).hot_width,
            sharpened.hot_width);
}

}  // namespace
}  // namespace sstfilter
