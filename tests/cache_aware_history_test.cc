// cache_aware holds the filter bytes it chooses on a growing tree: the
// tree grows in a small block cache past the point where its filters fit,
// so the plans cut the budget as it grows and the tables built under
// earlier plans hold more than later ones allow. Once the tree is still,
// its live filter bytes are compared with the budget of the plan its
// latest table was sized under (the column family's CachePlanMemo::Last,
// cache_plan_memo.h): at most 5% over it (1.03x with 7.8.3 and 9.11.2, 0.99x with 11.8.1; the census reads
// the tree at each event, so every run plans alike). Under it is allowed: where the last plan
// raised the budget, the tables built before keep their bits until
// rewritten. Not asserted here: a reopen halfway (0.90-1.08x: the new DB
// object plans afresh) and a burst with compactions off (docs/rocksdb.md).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "filter/plan/cache_plan_memo.h"
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

// An LRU block cache holding the partitioned filters and index: the
// tree's filters pass it at about 7,000 keys.
constexpr size_t kCacheBytes = 8 << 10;

// Small tables, filters and index in the block cache.
rocksdb::Options OptionsFor(rocksdb::Env* env) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.env = env;
  testing::UseSmallLeveledTree(&options);
  // The census reads the tree at each event, not as its cost allows: the
  // plans then follow the tree alone, not the machine's timing.
  options.listeners.push_back(std::make_shared<LevelCensusListener>(0.0));
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
// work it triggers (the same tree on every run).
void Write(rocksdb::DB* db, const std::vector<std::string>& keys, size_t begin, size_t end) {
  for (size_t i = begin; i < end; i += 100) {
    rocksdb::WriteBatch batch;
    for (size_t j = i; j < std::min(i + 100, end); ++j) {
      batch.Put(keys[j], testing::ValueFor(keys[j]));
    }
    ASSERT_TRUE(db->Write(rocksdb::WriteOptions(), &batch).ok());
    WaitForBackgroundWork(db);
  }
}

// The filter bytes of the budget cache_aware chose for the DB's latest
// table (its plan's budget, over every filtered run: the bytes the tree
// holds once that table's debts are repaid).
double LastBudgetBytes(rocksdb::DB* db) {
  const std::shared_ptr<CachePlanMemo> plans =
      LevelCensus::Instance().PlansOf(CensusKeyOf(db), "default");
  const std::optional<CachePlan> plan = plans ? plans->Last() : std::nullopt;
  EXPECT_TRUE(plan.has_value()) << "no plan made for the DB";
  if (!plan.has_value()) return 0;
  EXPECT_EQ(plan->unfiltered_from, CachePlan::kAllFiltered) << "hit_share:0 keeps every filter";
  return plan->budget_bits / 8;
}

TEST(CacheAwareHistoryTest, AGrowingTreeHoldsItsPlansBudget) {
  EnsureRocksDbFilterPoliciesRegistered();
  const std::unique_ptr<rocksdb::Env> env(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  const rocksdb::Options options = OptionsFor(env.get());
  const std::vector<std::string> keys = RandomKeys(60000, 83);
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(OpenDb(options, "/db", &db).ok());
  Write(db.get(), keys, 0, keys.size());
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  WaitForBackgroundWork(db.get());
  const double live = static_cast<double>(testing::LiveFilterBytes(db.get()));
  const double budget = LastBudgetBytes(db.get());
  std::printf("live filters %.1f KiB, the budget %.1f KiB (%.3fx)\n", live / 1024, budget / 1024,
              live / budget);
  ASSERT_GT(budget, 0);
  ASSERT_GT(live, 3.0 * kCacheBytes) << "the premise: filters several times the cache";
  EXPECT_LE(live / budget, 1.05) << "over the budget";
  EXPECT_GE(live / budget, 0.75) << "far under the budget: the plan not followed";
  testing::ExpectAllFound(db.get(), keys, "after growth");
}

}  // namespace
}  // namespace sstfilter
