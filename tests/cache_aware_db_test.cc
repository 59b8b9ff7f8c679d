// cache_aware (optimize_levels:cache_aware) in a real leveled DB whose
// filters live in a small LRU block cache: where every Get finds its key
// (hit_share:1) the deepest level goes without filters; where none does
// (hit_share:0) and the filters cannot all stay cached, they get fewer bytes
// than optimize_levels alone gives them; where the block cache does not hold
// the filters the policy says so in the DB's log and sizes them as
// optimize_levels alone. Each DB is compared with the same writes under
// optimize_levels alone, and every key is found after a reopen.
#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "filter/cache_model/traffic_popularity.h"
#include "filter/plan/cache_plan_memo.h"
#include "gtest/gtest.h"
#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/write_batch.h"
#include "table/census/census_listener.h"
#include "table/census/census_registry.h"
#include "table/census/observed_hit_share.h"
#include "table/census/open_db.h"
#include "table/census/traffic_file.h"
#include "table/rocksdb/registration.h"
#include "tests/cache_aware_db_util.h"
#include "tests/db_test_util.h"
#include "tests/warning_log.h"

namespace sstfilter {
namespace {

using cache_aware_testing::CacheSetup;
using cache_aware_testing::kCacheAware;
using cache_aware_testing::kKeys;
using cache_aware_testing::LongValueFor;
using cache_aware_testing::OptionsFor;
using cache_aware_testing::PlanAfterGets;
using cache_aware_testing::WriteAndFlush;
using testing::RandomKeys;
using testing::WaitForBackgroundWork;
using testing::WarningLog;

constexpr char kPlain[] = "sstfilter.bloom:10:cache_local:optimize_levels";


// The live tables' filters by level.
struct LevelFilters {
  uint64_t bytes = 0, keys = 0;
  int tables = 0, unfiltered = 0;  // Tables, and those without a filter block.
  double BitsPerKey() const { return keys ? 8.0 * static_cast<double>(bytes) / keys : 0; }
};

struct DbFilters {
  std::map<int, LevelFilters> levels;
  uint64_t bytes = 0, keys = 0;
  int Deepest() const { return levels.empty() ? -1 : levels.rbegin()->first; }
  int LevelsBelowL0() const {
    return static_cast<int>(levels.size()) - static_cast<int>(levels.count(0));
  }
  const LevelFilters& At(int level) const { return levels.at(level); }
  std::string Summary() const {
    std::string s = absl::StrFormat("%.1f KiB", bytes / 1024.0);
    for (const auto& [level, f] : levels) {
      s += absl::StrFormat(", L%d %.2f bits/key (%d tables, %d unfiltered, %d keys)", level,
                           f.BitsPerKey(), f.tables, f.unfiltered, f.keys);
    }
    return s;
  }
};

DbFilters FiltersOf(rocksdb::DB* db) {
  rocksdb::TablePropertiesCollection tables;
  EXPECT_TRUE(db->GetPropertiesOfAllTables(&tables).ok());
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  std::map<std::string, int> level_of;
  for (const auto& f : files) level_of[f.db_path + f.name] = f.level;
  DbFilters filters;
  for (const auto& [path, props] : tables) {
    const auto level = level_of.find(path);
    EXPECT_NE(level, level_of.end()) << path << " is not a live table";
    if (level == level_of.end()) continue;
    LevelFilters& f = filters.levels[level->second];
    f.bytes += props->filter_size, f.keys += props->num_entries;
    ++f.tables;
    if (props->filter_size == 0) ++f.unfiltered;
    filters.bytes += props->filter_size, filters.keys += props->num_entries;
  }
  return filters;
}

struct BuiltDb {
  DbFilters filters;
  std::shared_ptr<WarningLog> log = std::make_shared<WarningLog>();
  uint64_t filter_blocks_cached = 0;  // Added to the block cache by the reads back.
};

// Rewrites the deepest level's tables in place (DB::CompactFiles into the
// same level), each built for the tree as it now is; waits for it.
void RewriteDeepestLevel(rocksdb::DB* db) {
  rocksdb::ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  for (auto level = meta.levels.rbegin(); level != meta.levels.rend(); ++level) {
    if (level->files.empty()) continue;
    std::vector<std::string> names;
    for (const auto& file : level->files) names.push_back(file.name);
    const rocksdb::Status s =
        db->CompactFiles(rocksdb::CompactionOptions(), names, level->level);
    EXPECT_TRUE(s.ok()) << s.ToString();
    WaitForBackgroundWork(db);
    return;
  }
}

// What BuildDb leaves of the fill: the tree as the writes left it, or with
// its deepest level rewritten for the tree it ends as (the tables a fill
// built while the tree was small keep the plan of that tree until a
// compaction rewrites them, and which of them one does depends on the
// order of RocksDB's jobs).
enum class Deepest { kAsWritten, kRewritten };

// Writes `keys_written` keys (seed 61; WriteAndFlush); reads the filters. With `read_back`,
// closes the DB, reopens it as a new process would (a new census listener)
// and reads every key back. The DB lives in memory: on a disk the syncs of
// its table files take most of the time.
BuiltDb BuildDb(const std::string& policy, const CacheSetup& cache, size_t keys_written,
                bool read_back, Deepest deepest = Deepest::kAsWritten) {
  EnsureRocksDbFilterPoliciesRegistered();
  BuiltDb built;
  const std::unique_ptr<rocksdb::Env> env(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  const std::string path = "/db";
  rocksdb::Options options = OptionsFor(policy, cache, built.log);
  options.env = env.get();
  const std::vector<std::string> keys = RandomKeys(keys_written, 61);
  {
    std::unique_ptr<rocksdb::DB> db;
    const rocksdb::Status s = OpenDb(options, path, &db);
    EXPECT_TRUE(s.ok()) << policy << ": " << s.ToString();
    if (!s.ok()) return built;
    WriteAndFlush(db.get(), keys, 0, keys.size());
    if (deepest == Deepest::kRewritten) RewriteDeepestLevel(db.get());
    built.filters = FiltersOf(db.get());
  }
  std::printf("%s: %s\n", policy.c_str(), built.filters.Summary().c_str());
  if (!read_back) return built;
  options.listeners = {NewLevelCensusListener()};
  std::unique_ptr<rocksdb::DB> db;
  const rocksdb::Status s = OpenDb(options, path, &db);
  EXPECT_TRUE(s.ok()) << policy << ": reopen: " << s.ToString();
  if (!s.ok()) return built;
  const uint64_t added_before = options.statistics->getTickerCount(rocksdb::BLOCK_CACHE_FILTER_ADD);
  testing::ExpectAllFound(db.get(), keys, policy + " after the reopen", LongValueFor);
  built.filter_blocks_cached =
      options.statistics->getTickerCount(rocksdb::BLOCK_CACHE_FILTER_ADD) - added_before;
  return built;
}


// Every Get finds its key: a filter at the deepest level, which holds most
// keys, answers "maybe" to nearly every Get that reaches it, so the plan
// leaves that level without filters (its index partitions keep the cache)
// and keeps the levels above filtered (they spare those Gets an index and a
// data block each). The deepest level's tables, rewritten for the tree the
// fill ends as, have no filter block, where optimize_levels alone gives
// them about 10 bits per key; every key is found after a reopen, by Get and
// by MultiGet.
TEST(CacheAwareDbTest, AllHitsLeaveTheDeepestLevelUnfiltered) {
  const CacheSetup cache{64 << 10};
  const BuiltDb plain =
      BuildDb(kPlain, cache, kKeys, /*read_back=*/false, Deepest::kRewritten);
  const BuiltDb aware = BuildDb(std::string(kCacheAware) + ":hit_share:1", cache, kKeys,
                                /*read_back=*/true, Deepest::kRewritten);
  ASSERT_EQ(plain.filters.keys, kKeys);
  ASSERT_EQ(aware.filters.keys, kKeys);
  ASSERT_GE(plain.filters.LevelsBelowL0(), 2) << plain.filters.Summary();
  const int deepest = plain.filters.Deepest();
  ASSERT_EQ(aware.filters.Deepest(), deepest) << aware.filters.Summary();
  const LevelFilters& bottom = aware.filters.At(deepest);
  const double plain_bits = plain.filters.At(deepest).BitsPerKey();
  ASSERT_GT(plain_bits, 5.0) << "optimize_levels alone filters the deepest level";
  EXPECT_EQ(plain.filters.At(deepest).unfiltered, 0) << plain.filters.Summary();
  EXPECT_LT(bottom.BitsPerKey(), 0.5 * plain_bits)
      << "deepest level L" << deepest << ": cache_aware " << aware.filters.Summary()
      << "; optimize_levels " << plain.filters.Summary();
  // Not a budget cut alone: rewritten for the tree as it ends, its tables
  // have no filter block at all.
  EXPECT_EQ(bottom.unfiltered, bottom.tables) << aware.filters.Summary();
  LevelFilters above;
  for (const auto& [level, f] : aware.filters.levels) {
    if (level < deepest) above.bytes += f.bytes, above.keys += f.keys;
  }
  EXPECT_GT(above.BitsPerKey(), 2.0)
      << "the levels above the deepest lost their filters too: " << aware.filters.Summary();
}

// No Get finds its key, and the block cache (8 KiB) is a small part of the
// filters optimize_levels alone gives the tree (about 63 KiB): the plan
// spends fewer bytes (measured 0.73 to 0.81 of them: the census sees the
// tree at slightly different moments from run to run), so that more of the
// filters stay cached. Every key is found after a reopen.
TEST(CacheAwareDbTest, FiltersBeyondTheCacheGetFewerBytes) {
  const CacheSetup cache{8 << 10};
  const BuiltDb plain = BuildDb(kPlain, cache, kKeys, /*read_back=*/false);
  const BuiltDb aware =
      BuildDb(std::string(kCacheAware) + ":hit_share:0", cache, kKeys, /*read_back=*/true);
  ASSERT_EQ(plain.filters.keys, kKeys);
  ASSERT_EQ(aware.filters.keys, kKeys);
  ASSERT_GT(plain.filters.bytes, 4 * cache.cache_bytes) << "the filters would fit the cache";
  EXPECT_LT(static_cast<double>(aware.filters.bytes), 0.9 * plain.filters.bytes)
      << "cache_aware " << aware.filters.Summary() << "; optimize_levels "
      << plain.filters.Summary();
  // Absent keys still meet a filter at every level: none is dropped.
  for (const auto& [level, f] : aware.filters.levels) {
    EXPECT_EQ(f.unfiltered, 0) << "a table at L" << level << " without a filter";
  }
}

// The table readers hold the filters (full filters, cache_index_and_filter_
// blocks=false: none enters the block cache): the DB's log says at WARN
// that cache_aware falls back, naming why, and the filters are
// optimize_levels' own on the same writes, although hit_share:1 would
// otherwise leave the deepest level unfiltered. (With partitioned filters
// RocksDB loads the partitions through the block cache whatever
// cache_index_and_filter_blocks says, so that setup is not used here.)
TEST(CacheAwareDbTest, FallsBackWhereTheFiltersAreNotInTheBlockCache) {
  const CacheSetup cache{64 << 10, /*cache_index_and_filter_blocks=*/false,
                         /*partitioned=*/false};
  const BuiltDb plain = BuildDb(kPlain, cache, kKeys, /*read_back=*/false);
  const BuiltDb aware =
      BuildDb(std::string(kCacheAware) + ":hit_share:1", cache, kKeys, /*read_back=*/true);
  ASSERT_EQ(plain.filters.keys, kKeys);
  ASSERT_EQ(aware.filters.keys, kKeys);
  EXPECT_EQ(aware.filter_blocks_cached, 0u) << "the premise: no filter in the block cache";
  const std::vector<std::string> warnings = aware.log->Lines();
  const auto says_fallback = [](const std::string& line) {
    return absl::StrContains(line, "cache_aware: the filters are not in a block cache") &&
           absl::StrContains(line, "cache_index_and_filter_blocks=false");
  };
  EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(), says_fallback))
      << "no WARN line says the fallback, of " << warnings.size() << ":\n"
      << absl::StrJoin(warnings, "\n");
  for (const std::string& line : plain.log->Lines()) {
    EXPECT_FALSE(absl::StrContains(line, "not in a block cache")) << "optimize_levels: " << line;
  }
  ASSERT_GT(plain.filters.bytes, 0u);
  const double ratio =
      static_cast<double>(aware.filters.bytes) / static_cast<double>(plain.filters.bytes);
  EXPECT_NEAR(ratio, 1.0, 0.03) << "cache_aware " << aware.filters.Summary() << "; optimize_levels "
                                << plain.filters.Summary();
  for (const auto& [level, f] : aware.filters.levels) {
    EXPECT_EQ(f.unfiltered, 0) << "a table at L" << level << " without a filter";
  }
}

// What the spread's fit counts on (spread_fit.h): RocksDB reads a new
// table's filter partitions into the block cache as it opens the table
// after its flush, each a filter miss in the DB's statistics, before any
// Get asks for one. One flush of 20,000 keys, filter partitions of about
// 256 bytes (about 100 of them): at least half that many misses, where
// the top level alone would be one.
TEST(CacheAwareDbTest, NewTablesFilterPartitionsAreReadIntoTheCacheUnasked) {
  EnsureRocksDbFilterPoliciesRegistered();
  const std::unique_ptr<rocksdb::Env> env(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  rocksdb::Options options;
  options.create_if_missing = true;
  options.env = env.get();
  options.disable_auto_compactions = true;
  options.write_buffer_size = 64 << 20;
  options.statistics = rocksdb::CreateDBStatistics();
  rocksdb::BlockBasedTableOptions table;
  ASSERT_TRUE(CreateFilterPolicyStrictly("sstfilter.bloom:10", &table.filter_policy).ok());
  table.partition_filters = true;
  table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
  table.metadata_block_size = 256;
  table.cache_index_and_filter_blocks = true;
  table.block_cache = rocksdb::NewLRUCache(8 << 20);
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(OpenDb(options, "/db", &db).ok());
  for (const std::string& key : RandomKeys(20000, 61)) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, LongValueFor(key)).ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  rocksdb::TablePropertiesCollection tables;
  ASSERT_TRUE(db->GetPropertiesOfAllTables(&tables).ok());
  ASSERT_EQ(tables.size(), 1u);
  const uint64_t filter_bytes = tables.begin()->second->filter_size;
  const uint64_t misses = options.statistics->getTickerCount(rocksdb::BLOCK_CACHE_FILTER_MISS);
  EXPECT_EQ(options.statistics->getTickerCount(rocksdb::MEMTABLE_MISS), 0u) << "a Get ran";
  EXPECT_GE(filter_bytes / 256, 80u);
  EXPECT_GE(misses, filter_bytes / 256 / 2) << filter_bytes << " filter bytes";
}

// A share the census reads while Gets run (its rebuild loop's thread
// reads the statistics' tickers one at a time): a Get between the two
// reads moves it by one in the window (0.999984 in one of six runs under
// ASan).
constexpr double kInFlightGets = 1e-3;

// With no hit_share in the policy id and statistics in the DB, the plan is
// made for the share of Gets that RocksDB's tickers say found their key:
// after a window of Gets of absent keys, for none (every level filtered);
// after one of present keys, for all (the deepest level unfiltered, as
// hit_share:1 plans it in AllHitsLeaveTheDeepestLevelUnfiltered); before
// any Get, for the assumed half. Every key is found at the end.
TEST(CacheAwareDbTest, TheDbsStatisticsSayHowManyGetsFindTheirKey) {
  EnsureRocksDbFilterPoliciesRegistered();
  const std::unique_ptr<rocksdb::Env> env(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  rocksdb::Options options =
      OptionsFor(kCacheAware, CacheSetup{64 << 10}, std::make_shared<WarningLog>());
  options.env = env.get();
  const std::vector<std::string> keys = RandomKeys(kKeys, 61);
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(OpenDb(options, "/db", &db).ok());
  const size_t window = HitShareWindow::kWindowGets + HitShareWindow::kWindowGets / 5;

  const CachePlan before = PlanAfterGets(db.get(), {}, keys, 0, kKeys - 200);
  EXPECT_EQ(before.hit_share_from, HitShareFrom::kAssumed);
  EXPECT_EQ(before.hit_share, kAssumedHitShare);
  rocksdb::TablePropertiesCollection tables;
  ASSERT_TRUE(db->GetPropertiesOfAllTables(&tables).ok());
  uint64_t live_filter_bytes = 0;
  for (const auto& [file, props] : tables) live_filter_bytes += props->filter_size;

  const CachePlan absent = PlanAfterGets(db.get(), testing::AbsentKeys(window, 5), keys,
                                         kKeys - 200, kKeys - 100);
  EXPECT_EQ(absent.hit_share_from, HitShareFrom::kObserved);
  EXPECT_EQ(absent.hit_share, 0);
  EXPECT_EQ(absent.unfiltered_from, CachePlan::kAllFiltered);
  // The window that closed counts the filter bytes this instance wrote
  // (their partitions' first misses, spread_fit.h): at least the tables
  // live before its Gets.
  const auto runs = LevelCensus::Instance().Find(CensusKeyOf(db.get()), "default");
  ASSERT_TRUE(runs != nullptr && runs->observed_misses.has_value());
  EXPECT_GE(runs->observed_misses->new_filter_bytes, static_cast<double>(live_filter_bytes));
  EXPECT_GT(live_filter_bytes, 0u);
  EXPECT_GE(runs->observed_misses->gets, static_cast<double>(window));

  const std::vector<std::string> present(keys.begin(), keys.begin() + window);
  const CachePlan found = PlanAfterGets(db.get(), present, keys, kKeys - 100, kKeys);
  EXPECT_EQ(found.hit_share_from, HitShareFrom::kObserved);
  EXPECT_NEAR(found.hit_share, 1, kInFlightGets);
  EXPECT_NE(found.unfiltered_from, CachePlan::kAllFiltered)
      << "every Get found its key, yet the deepest level keeps its filters";

  testing::ExpectAllFound(db.get(), keys, "after the Gets", LongValueFor);
}

// Gets that go to a tenth of the keys (the first in key order), each
// finding it: once RocksDB's sampled reads show it, the plan spreads the
// Gets as the tables saw them, not uniformly, gathered further where the
// DB's statistics count fewer filter misses than that spread gives. A reopened DB starts its
// sampled reads and statistics at zero; its census carries the last
// instance's spread and hit share over from the traffic file, so the next
// table is planned as before, until its own statistics say another share
// (here none found), which the next reopen carries. Every key is still
// found.
TEST(CacheAwareDbTest, SkewedGetsAreSpreadAsTheTablesSawThemAcrossAReopen) {
  EnsureRocksDbFilterPoliciesRegistered();
  const std::unique_ptr<rocksdb::Env> env(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  rocksdb::Options options =
      OptionsFor(kCacheAware, CacheSetup{64 << 10}, std::make_shared<WarningLog>());
  options.env = env.get();
  // The tables' sampled reads are read at each event, not as cost allows.
  options.listeners = {std::make_shared<LevelCensusListener>(0.0)};
  const std::vector<std::string> keys = RandomKeys(kKeys, 61);
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(OpenDb(options, "/db", &db).ok());
  const CachePlan before = PlanAfterGets(db.get(), {}, keys, 0, kKeys - 300);
  EXPECT_EQ(before.spread_slices, 0u) << "no Gets yet, yet a spread";
  std::vector<std::string> hot(keys.begin(), keys.end() - 300);
  std::sort(hot.begin(), hot.end());
  hot.resize(hot.size() / 10);
  std::vector<std::string> gets;
  for (int round = 0; round < 30; ++round) gets.insert(gets.end(), hot.begin(), hot.end());
  const CachePlan skewed = PlanAfterGets(db.get(), gets, keys, kKeys - 300, kKeys - 200);
  EXPECT_GE(skewed.spread_slices, kMinPopularityTables)
      << "150,000 Gets of a tenth of the keys, yet the plan spread them uniformly";
  EXPECT_EQ(skewed.hit_share_from, HitShareFrom::kObserved);
  EXPECT_NEAR(skewed.hit_share, 1, kInFlightGets);
  EXPECT_LT(skewed.hot_width, kUnsharpened)
      << "the block cache missed fewer filter partitions than the tables' spread gives, yet "
         "the plan kept that spread";

  const auto reopen = [&] {
    db.reset();
    options.statistics = rocksdb::CreateDBStatistics();
    options.listeners = {std::make_shared<LevelCensusListener>(0.0)};
    ASSERT_TRUE(OpenDb(options, "/db", &db).ok());
  };
  reopen();
  const CachePlan reopened = PlanAfterGets(db.get(), {}, keys, kKeys - 200, kKeys - 100);
  EXPECT_GE(reopened.spread_slices, kMinPopularityTables)
      << "reopened: the last instance's spread is lost";
  EXPECT_EQ(reopened.hit_share_from, HitShareFrom::kCarried);
  EXPECT_NEAR(reopened.hit_share, 1, kInFlightGets);

  const size_t window = HitShareWindow::kWindowGets + HitShareWindow::kWindowGets / 5;
  const CachePlan absent =
      PlanAfterGets(db.get(), testing::AbsentKeys(window, 5), keys, kKeys - 100, kKeys - 50);
  EXPECT_EQ(absent.hit_share_from, HitShareFrom::kObserved);
  EXPECT_EQ(absent.hit_share, 0);
  reopen();
  const CachePlan again = PlanAfterGets(db.get(), {}, keys, kKeys - 50, kKeys);
  EXPECT_EQ(again.hit_share_from, HitShareFrom::kCarried);
  EXPECT_EQ(again.hit_share, 0) << "the traffic file kept the share of an instance before";
  testing::ExpectAllFound(db.get(), keys, "after the skewed Gets and a reopen", LongValueFor);
}

// A reopened DB takes up the traffic file its last instance left, and only
// that: one naming another DB (left in the directory) or a damaged one is
// not taken up, and the DB's log says why. The files here are written by
// hand, as the format says (traffic_file.h).
TEST(CacheAwareDbTest, OnlyItsOwnTrafficFileIsTakenUp) {
  EnsureRocksDbFilterPoliciesRegistered();
  const std::unique_ptr<rocksdb::Env> env(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  const auto log = std::make_shared<WarningLog>();
  rocksdb::Options options = OptionsFor(kCacheAware, CacheSetup{64 << 10}, log);
  options.env = env.get();
  const std::vector<std::string> keys = RandomKeys(4000, 61);
  std::string identity;
  {
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(OpenDb(options, "/db", &db).ok());
    WriteAndFlush(db.get(), keys, 0, 1000);
    ASSERT_TRUE(db->GetDbIdentity(identity).ok());
  }
  const std::string path = std::string("/db/") + kTrafficFileName;
  const struct {
    std::string text, warning;
    HitShareFrom from;
  } cases[] = {
      {"sstfilter traffic 3\ndb another-db\nhit_share 0\n", "it names DB 'another-db'",
       HitShareFrom::kAssumed},
      {"sstfilter traffic 3\ndb " + identity + "\nhit_share 7\n", "line 3 is not 'hit_share",
       HitShareFrom::kAssumed},
      {"sstfilter traffic 2\nhit_share 0\n", "does not name its DB", HitShareFrom::kAssumed},
      {"sstfilter traffic 3\ndb " + identity + "\nhit_share 0\n", "", HitShareFrom::kCarried},
  };
  size_t next = 1000;
  for (const auto& c : cases) {
    // The last instance's census first: it writes on its own thread, and
    // its last summary must not land over the file written here.
    options.listeners.clear();
    ASSERT_TRUE(rocksdb::WriteStringToFile(env.get(), c.text, path).ok());
    options.statistics = rocksdb::CreateDBStatistics();
    options.listeners = {NewLevelCensusListener()};
    const size_t lines_before = log->Lines().size();
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(OpenDb(options, "/db", &db).ok());
    const CachePlan plan = PlanAfterGets(db.get(), {}, keys, next, next + 750);
    next += 750;
    EXPECT_EQ(plan.hit_share_from, c.from) << c.text;
    EXPECT_EQ(plan.hit_share, c.from == HitShareFrom::kCarried ? 0 : kAssumedHitShare) << c.text;
    const std::vector<std::string> all = log->Lines();
    const std::vector<std::string> lines(all.begin() + lines_before, all.end());
    const bool warned = std::any_of(lines.begin(), lines.end(), [&](const std::string& line) {
      return absl::StrContains(line, "not taken up") && absl::StrContains(line, c.warning);
    });
    EXPECT_EQ(warned, !c.warning.empty()) << c.text << "\n" << absl::StrJoin(lines, "\n");
    testing::ExpectAllFound(db.get(), absl::MakeConstSpan(keys).first(next), c.text, LongValueFor);
  }
}

}  // namespace
}  // namespace sstfilter
