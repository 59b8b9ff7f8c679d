// What the cache_aware DB tests share: a leveled tree of small tables whose
// filters live in a small LRU block cache, written and read the same way on
// every run.
#ifndef SSTFILTER_TESTS_CACHE_AWARE_DB_UTIL_H_
#define SSTFILTER_TESTS_CACHE_AWARE_DB_UTIL_H_

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "filter/plan/cache_plan_memo.h"
#include "gtest/gtest.h"
#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"
#include "table/census/census_listener.h"
#include "table/census/census_registry.h"
#include "table/census/filter_answers.h"
#include "table/rocksdb/registration.h"
#include "tests/db_test_util.h"
#include "tests/warning_log.h"

namespace sstfilter {
namespace cache_aware_testing {

using testing::WaitForBackgroundWork;

inline constexpr char kCacheAware[] = "sstfilter.bloom:10:cache_local:optimize_levels:cache_aware";
inline constexpr size_t kKeys = 50000;

// ~100-byte values, each telling which key it belongs to.
inline std::string LongValueFor(const std::string& key) {
  std::string value = testing::ValueFor(key);
  value.resize(100, static_cast<char>('a' + static_cast<unsigned char>(key[1]) % 26));
  return value;
}

// Where the filters live.
struct CacheSetup {
  size_t cache_bytes = 64 << 10;
  bool cache_index_and_filter_blocks = true;
  // Partitioned filters and index (kTwoLevelIndexSearch), else full ones.
  bool partitioned = true;
};

// A leveled tree of small tables: 50,000 keys make about 7 MB of data,
// L0 and L3 to L6 over a 256 KiB base level (multiplier 4), in about 270
// tables. The cache-aware plan costs 10 to 30 ms of CPU per table built (the
// cache model over a few hundred candidate plans): with 64 KiB tables,
// 100,000 keys took 30 s.
inline rocksdb::Options OptionsFor(const std::string& policy, const CacheSetup& cache,
                                   std::shared_ptr<rocksdb::Logger> log) {
  rocksdb::Options options;
  options.create_if_missing = true;
  testing::UseSmallLeveledTree(&options);
  options.statistics = rocksdb::CreateDBStatistics();
  // No rebuilds (rebuild_db_test.cc tests them): their readings of the
  // Gets would close the share's windows between the tests' own events.
  options.listeners.push_back(std::make_shared<LevelCensusListener>(
      LevelCensusListener::kWorkPerRebuild, FilterAnswers::kAnsweredWindowGets, 0.0));
  options.info_log = std::move(log);
  rocksdb::BlockBasedTableOptions table;
  EXPECT_TRUE(CreateFilterPolicyStrictly(policy, &table.filter_policy).ok()) << policy;
  if (cache.partitioned) {
    table.partition_filters = true;
    table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  }
  table.cache_index_and_filter_blocks = cache.cache_index_and_filter_blocks;
  table.block_cache = rocksdb::NewLRUCache(cache.cache_bytes);
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return options;
}

// With every query sampled (AnsweredOptions), windows of 20,000 Gets tell
// the share as 400,000 Gets sampled at the default rate would (within about
// 1.5%).
inline constexpr uint64_t kAnsweredTestWindow = 20000;

// OptionsFor(kCacheAware) in `env`, without statistics (the share of Gets
// found told by the filters' answers, each sampled: the caller restores
// FilterAnswers::kSampleEvery), with `listener` as its only one.
inline rocksdb::Options AnsweredOptions(rocksdb::Env* env,
                                        std::shared_ptr<rocksdb::EventListener> listener) {
  EnsureRocksDbFilterPoliciesRegistered();
  FilterAnswers::SetSampleEvery(1);
  rocksdb::Options options =
      OptionsFor(kCacheAware, CacheSetup{64 << 10}, std::make_shared<testing::WarningLog>());
  options.env = env;
  options.statistics = nullptr;
  options.listeners = {std::move(listener)};
  return options;
}

// Writes keys[begin, end) in batches of 100, each waiting for the flushes
// and compactions it triggers (one thread: the same tree on every run),
// then flushes and waits.
inline void WriteAndFlush(rocksdb::DB* db, const std::vector<std::string>& keys, size_t begin,
                          size_t end) {
  for (size_t i = begin; i < end; i += 100) {
    rocksdb::WriteBatch batch;
    for (size_t j = i; j < std::min(i + 100, end); ++j) {
      batch.Put(keys[j], LongValueFor(keys[j]));
    }
    EXPECT_TRUE(db->Write(rocksdb::WriteOptions(), &batch).ok());
    WaitForBackgroundWork(db);
  }
  EXPECT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  WaitForBackgroundWork(db);
}

// The plan the DB's latest table was sized under, after Gets of `gets`
// (each may find its key or not) and a flush of keys[begin, end): the
// flush's start is where the census reads the DB's statistics.
inline CachePlan PlanAfterGets(rocksdb::DB* db, const std::vector<std::string>& gets,
                               const std::vector<std::string>& keys, size_t begin, size_t end) {
  std::string value;
  for (const std::string& key : gets) {
    const rocksdb::Status s = db->Get(rocksdb::ReadOptions(), key, &value);
    EXPECT_TRUE(s.ok() || s.IsNotFound()) << s.ToString();
  }
  WriteAndFlush(db, keys, begin, end);
  const std::shared_ptr<CachePlanMemo> plans =
      LevelCensus::Instance().PlansOf(CensusKeyOf(db), "default");
  const std::optional<CachePlan> plan = plans ? plans->Last() : std::nullopt;
  EXPECT_TRUE(plan.has_value()) << "no table sized under cache_aware";
  return plan.value_or(CachePlan());
}

}  // namespace cache_aware_testing
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_CACHE_AWARE_DB_UTIL_H_
