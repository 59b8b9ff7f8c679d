// cache_aware keeps the filter bytes within the budget it chooses on
// trees with a history, since bytes over it push blocks out of the cache
// it sized them for. The tree grows in a small block cache past the point
// where its filters fit, so the plans cut the budget as it grows and the
// tables built under earlier plans hold more than later ones allow; one
// tree then takes keys into its WAL, reopens (a recovery flush, and a new
// DB object that plans afresh) and takes a burst with compactions off (L0
// swells past its trigger over a bottom level built under another plan).
// Once the tree is still, its live filter bytes are compared with the
// budget of the plan its latest table was sized under (cache_plan_memo.h's
// HeldPlan): at most 5% over it (each job repays every debt it can,
// Repayment::kWhole: measured 0.97-1.01x after growth and 0.82-0.98x after
// the burst over runs of this test; the old gradual repayment held
// 1.15-1.21x and 1.18x). Under it is allowed: where a plan raises the
// budget, the tables built before keep their bits until rewritten, and a
// reopened DB plans afresh. A tree of 48,000 keys overspent 1.06x after the
// burst once in two runs: flushes of a few hundred keys cannot repay a
// deep level's debt (their FP stops at kMaxRunFpRate). Universal compaction
// is measured by the benchmarks, not here: at this size its plans swing
// between runs, and its flushes cannot repay a full compaction's debt
// (0.85-1.16x).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "filter/allocation/cache_plan_memo.h"
#include "gtest/gtest.h"
#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"
#include "table/census/census_listener.h"
#include "table/census/census_registry.h"
#include "table/census/open_db.h"
#include "table/rocksdb/registration.h"
#include "tests/db_test_util.h"

namespace sstfilter {
namespace {

using testing::RandomKeys;
using testing::WaitForBackgroundWork;

constexpr char kPolicy[] = "sstfilter.bloom:10:cache_local:optimize_levels:cache_aware:hit_share:0";

// A history a tree is built through.
struct History {
  std::string name;
  // After the fill: keys left in the WAL and a reopen, then a burst
  // written with compactions off.
  bool reopen_and_burst = false;
};

// An LRU block cache holding the partitioned filters and index: the
// tree's filters pass it at about 7,000 keys.
constexpr size_t kCacheBytes = 8 << 10;

// Small tables, filters and index in the block cache.
rocksdb::Options OptionsFor(rocksdb::Env* env) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.env = env;
  testing::UseSmallLeveledTree(&options);
  options.listeners.push_back(NewLevelCensusListener());
  rocksdb::BlockBasedTableOptions table;
  EXPECT_TRUE(CreateFilterPolicyStrictly(kPolicy, &table.filter_policy).ok());
  table.partition_filters = true;
  table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  table.cache_index_and_filter_blocks = true;
  table.block_cache = rocksdb::NewLRUCache(kCacheBytes);
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return options;
}

// Writes keys[begin, end) in batches of 100, waiting after each for the
// work it triggers (with `wait`: the same tree on every run).
void Write(rocksdb::DB* db, const std::vector<std::string>& keys, size_t begin, size_t end,
           bool wait) {
  for (size_t i = begin; i < end; i += 100) {
    rocksdb::WriteBatch batch;
    for (size_t j = i; j < std::min(i + 100, end); ++j) {
      batch.Put(keys[j], testing::ValueFor(keys[j]));
    }
    ASSERT_TRUE(db->Write(rocksdb::WriteOptions(), &batch).ok());
    if (wait) WaitForBackgroundWork(db);
  }
}

// The filter bytes of the budget cache_aware chose for the DB's latest
// table (its plan's budget, over every filtered run: the bytes the tree
// holds once that table's debts are repaid).
double HeldBudgetBytes(rocksdb::DB* db) {
  const std::optional<CachePlan> plan = HeldPlan(CensusKeyOf(db), "default");
  EXPECT_TRUE(plan.has_value()) << "no plan held for the DB";
  if (!plan.has_value()) return 0;
  EXPECT_EQ(plan->unfiltered_from, CachePlan::kAllFiltered) << "hit_share:0 keeps every filter";
  return plan->budget_bits / 8;
}

class CacheAwareHistoryTest : public ::testing::TestWithParam<History> {};

TEST_P(CacheAwareHistoryTest, HoldsThePlansFilterBytes) {
  const History& history = GetParam();
  EnsureRocksDbFilterPoliciesRegistered();
  const std::unique_ptr<rocksdb::Env> env(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  rocksdb::Options options = OptionsFor(env.get());
  const std::vector<std::string> keys = RandomKeys(60000, 83);
  const size_t filled = history.reopen_and_burst ? 40000 : keys.size();
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(OpenDb(options, "/db", &db).ok());
  Write(db.get(), keys, 0, filled, /*wait=*/true);
  if (history.reopen_and_burst) {
    // 3,000 keys only in the WAL: the reopen's recovery flush writes them.
    options.avoid_flush_during_shutdown = true;
    ASSERT_TRUE(db->SetDBOptions({{"avoid_flush_during_shutdown", "true"}}).ok());
    Write(db.get(), keys, filled, filled + 3000, /*wait=*/false);
    db.reset();
    options.listeners = {NewLevelCensusListener()};
    ASSERT_TRUE(OpenDb(options, "/db", &db).ok());
    ASSERT_TRUE(db->SetOptions({{"disable_auto_compactions", "true"}}).ok());
    Write(db.get(), keys, filled + 3000, keys.size(), /*wait=*/true);
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  WaitForBackgroundWork(db.get());
  const double live = static_cast<double>(testing::LiveFilterBytes(db.get()));
  const double planned = HeldBudgetBytes(db.get());
  std::string l0;
  db->GetProperty("rocksdb.num-files-at-level0", &l0);
  std::printf("%s: live filters %.1f KiB, the budget %.1f KiB (%.3fx), %s L0 tables\n",
              history.name.c_str(), live / 1024, planned / 1024, live / planned, l0.c_str());
  ASSERT_GT(planned, 0);
  ASSERT_GT(live, 3.0 * kCacheBytes) << "the premise: filters several times the cache";
  EXPECT_LE(live / planned, 1.05) << history.name << ": over the budget";
  EXPECT_GE(live / planned, 0.75) << history.name << ": far under the budget";
  testing::ExpectAllFound(db.get(), keys, history.name);
}

INSTANTIATE_TEST_SUITE_P(
    Histories, CacheAwareHistoryTest,
    ::testing::Values(History{"leveled_growth"},
                      History{"leveled_reopen_and_burst", true}),
    [](const ::testing::TestParamInfo<History>& info) { return info.param.name; });

}  // namespace
}  // namespace sstfilter
