// The per-level policy (optimize_levels) in a real DB: it needs the level
// census listener, holds its memory budget on every tree shape against the
// uniform policy at the same setting with no more false positives, sizes
// the WAL recovery flush's table for the tree, and never loses a key.
#include <chrono>
#include <map>
#include <thread>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "db_test_util.h"
#include "filter/allocation/run_allocation.h"
#include "filter/allocation/table_fp_target.h"
#include "filter/allocation/tree_runs.h"
#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/write_batch.h"
#include "table/census/census_listener.h"
#include "table/census/census_registry.h"
#include "table/census/open_db.h"
#include "table/census/silent_logger.h"
#include "table/rocksdb/registration.h"

namespace sstfilter {
namespace {

using testing::ExpectAllFound;
using testing::RandomKeys;
using testing::TempDir;
using testing::ValueFor;
using testing::WaitForBackgroundWork;

// A tree shape the policy must hold its budget on.
struct Shape {
  std::string name;
  rocksdb::CompactionStyle style = rocksdb::kCompactionStyleLevel;
  bool dynamic_level_bytes = true;
  int l0_trigger = 4;   // level0_file_num_compaction_trigger.
  size_t keys = 60000;
  // optimize_filters_for_hits: RocksDB writes the bottommost tables without
  // a filter, and the budget is the uniform policy's above them.
  bool filters_for_hits = false;
  // How far its filter bytes may be from the uniform policy's: with the
  // bottom unfiltered they are those of the small levels above it, which
  // move more from tree to tree (0.96-1.04x over runs).
  double bytes_slack = 0.05;
};

// Filter bits per key by level over the live tables, and in total.
struct TreeFilters {
  std::map<int, std::pair<uint64_t, uint64_t>> by_level;  // level -> (filter bytes, keys)
  uint64_t bytes = 0;
  uint64_t keys = 0;
  double fp_reads = 0;  // False positives per absent-key Get (RocksDB's tickers).
  double BitsPerKey(int level) const {
    const auto& [b, k] = by_level.at(level);
    return k ? 8.0 * b / k : 0;
  }
};

TreeFilters FiltersOf(rocksdb::DB* db) {
  rocksdb::TablePropertiesCollection tables;
  EXPECT_TRUE(db->GetPropertiesOfAllTables(&tables).ok());
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  std::map<std::string, int> level_of;
  for (const auto& f : files) level_of[f.db_path + f.name] = f.level;
  TreeFilters t;
  for (const auto& [path, props] : tables) {
    auto& [bytes, keys] = t.by_level[level_of.at(path)];
    bytes += props->filter_size;
    keys += props->num_entries;
    t.bytes += props->filter_size;
    t.keys += props->num_entries;
  }
  return t;
}

constexpr size_t kAbsentGets = 100000;

// Data blocks read for nothing per Get of a key the DB does not hold.
double FalsePositivesPerAbsentGet(rocksdb::DB* db, const rocksdb::Options& options) {
  const uint64_t before = testing::Ticker(options, rocksdb::BLOOM_FILTER_FULL_POSITIVE) -
                          testing::Ticker(options, rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE);
  std::string value;
  for (const std::string& key : testing::AbsentKeys(kAbsentGets, 5)) {
    EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), key, &value).IsNotFound());
  }
  const uint64_t after = testing::Ticker(options, rocksdb::BLOOM_FILTER_FULL_POSITIVE) -
                         testing::Ticker(options, rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE);
  return static_cast<double>(after - before) / kAbsentGets;
}

// Writes shape.keys random keys in batches of 100 (each waiting for the
// flushes and compactions it triggers: the same tree for every policy),
// then flushes; checks every key reads back; returns the filters.
TreeFilters BuildTree(const Shape& shape, const std::string& policy, bool census) {
  EnsureRocksDbFilterPoliciesRegistered();
  TempDir dir;
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compaction_style = shape.style;
  options.level_compaction_dynamic_level_bytes = shape.dynamic_level_bytes;
  options.level0_file_num_compaction_trigger = shape.l0_trigger;
  options.write_buffer_size = 64 << 10;
  options.target_file_size_base = 64 << 10;
  options.max_bytes_for_level_base = 256 << 10;
  options.max_bytes_for_level_multiplier = 4;
  options.compression = rocksdb::kNoCompression;
  options.optimize_filters_for_hits = shape.filters_for_hits;
  options.statistics = rocksdb::CreateDBStatistics();
  if (census) options.listeners.push_back(NewLevelCensusListener());
  rocksdb::BlockBasedTableOptions table;
  EXPECT_TRUE(CreateFilterPolicyStrictly(policy, &table.filter_policy).ok()) << policy;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::Status s = OpenDb(options, dir.path(), &db);
  EXPECT_TRUE(s.ok()) << s.ToString();
  if (!s.ok()) return {};
  const std::vector<std::string> keys = RandomKeys(shape.keys, 17);
  for (size_t i = 0; i < keys.size(); i += 100) {
    rocksdb::WriteBatch batch;
    for (size_t j = i; j < std::min(i + 100, keys.size()); ++j) batch.Put(keys[j], ValueFor(keys[j]));
    EXPECT_TRUE(db->Write(rocksdb::WriteOptions(), &batch).ok());
    WaitForBackgroundWork(db.get());
  }
  EXPECT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  ExpectAllFound(db.get(), keys, shape.name + " " + policy);
  TreeFilters filters = FiltersOf(db.get());
  filters.fp_reads = FalsePositivesPerAbsentGet(db.get(), options);
  return filters;
}

class LevelPolicyShapeTest : public ::testing::TestWithParam<Shape> {};

// Against the uniform policy at the same setting, on the same tree: total
// filter bytes within 5%, no more false positives per absent Get (within
// the count's noise: 100,000 Gets, a few thousand false positives), and
// every key found (BuildTree).
TEST_P(LevelPolicyShapeTest, HoldsTheBudget) {
  const Shape& shape = GetParam();
  for (const std::string base :
       {"sstfilter.bloom:10:cache_local", "sstfilter.bloom:10:cache_local:compact_from_level:2"}) {
    const TreeFilters uniform = BuildTree(shape, base, /*census=*/false);
    const TreeFilters levels = BuildTree(shape, base + ":optimize_levels", /*census=*/true);
    ASSERT_GT(uniform.bytes, 0u);
    EXPECT_EQ(levels.keys, uniform.keys) << "the same tree";
    const double ratio = static_cast<double>(levels.bytes) / static_cast<double>(uniform.bytes);
    EXPECT_NEAR(ratio, 1.0, shape.bytes_slack) << shape.name << " " << base;
    EXPECT_LE(levels.fp_reads, uniform.fp_reads * 1.1) << shape.name << " " << base;
    std::string summary;
    for (const auto& [level, bk] : levels.by_level) {
      summary += absl::StrFormat(" L%d %.2f (uniform %.2f)", level, levels.BitsPerKey(level),
                                 uniform.by_level.count(level) ? uniform.BitsPerKey(level) : 0.0);
    }
    std::printf("%s, %s: bytes %.3fx of uniform, false positives per absent Get %.4f (uniform "
                "%.4f); bits/key%s\n",
                shape.name.c_str(), base.c_str(), ratio, levels.fp_reads, uniform.fp_reads,
                summary.c_str());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, LevelPolicyShapeTest,
    ::testing::Values(Shape{"leveled_dynamic"},
                      Shape{"leveled_static", rocksdb::kCompactionStyleLevel, false},
                      Shape{"l0_heavy", rocksdb::kCompactionStyleLevel, true, 12},
                      Shape{"universal", rocksdb::kCompactionStyleUniversal, false},
                      Shape{"leveled_filters_for_hits", rocksdb::kCompactionStyleLevel, true, 4,
                            60000, true, 0.1},
                      Shape{"universal_filters_for_hits", rocksdb::kCompactionStyleUniversal, false,
                            4, 60000, true, 0.1}),
    [](const auto& info) { return info.param.name; });

// A small tree's options with the per-level policy and its listener.
rocksdb::Options PerLevelOptions() {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 64 << 10;
  options.target_file_size_base = 64 << 10;
  options.max_bytes_for_level_base = 256 << 10;
  options.compression = rocksdb::kNoCompression;
  options.listeners.push_back(NewLevelCensusListener());
  rocksdb::BlockBasedTableOptions table;
  EXPECT_TRUE(CreateFilterPolicyStrictly("sstfilter.bloom:10:cache_local:optimize_levels",
                                         &table.filter_policy)
                  .ok());
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return options;
}

// Filter bits per key of the live table of exactly `entries` entries.
std::optional<double> BitsPerKeyOfTableWith(rocksdb::DB* db, uint64_t entries) {
  rocksdb::TablePropertiesCollection tables;
  EXPECT_TRUE(db->GetPropertiesOfAllTables(&tables).ok());
  for (const auto& [path, props] : tables) {
    if (props->num_entries == entries) return 8.0 * props->filter_size / props->num_entries;
  }
  return std::nullopt;
}

// Flushes and compacts every table into the bottom level, each sized for
// that tree. The next flush is then a lone L0 run over a level with no debt
// (its bits are a small run's, not reduced to repay the tables a growing
// tree left behind: an L0 left by the timing of the last compactions).
void SettleTree(rocksdb::DB* db) {
  ASSERT_TRUE(db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
  WaitForBackgroundWork(db);
}

// A DB reopened with its last writes only in the WAL: DB::Open's recovery
// flush builds an L0 table before any flush or compaction event. It is
// sized for the tree (an L0 table is a small run: more bits per key than
// the uniform setting's 10), and every key is found after the reopen.
TEST(LevelPolicyTest, SizesTheRecoveryFlushForTheTree) {
  EnsureRocksDbFilterPoliciesRegistered();
  TempDir dir;
  rocksdb::Options options = PerLevelOptions();
  const std::vector<std::string> keys = RandomKeys(40000, 23);
  const size_t in_wal = 300;  // Below one memtable: they stay in the WAL.
  {
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(OpenDb(options, dir.path(), &db).ok());
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), keys[i], ValueFor(keys[i])).ok());
      if (i + 1 + in_wal == keys.size()) SettleTree(db.get());
    }
  }  // Closed without a flush: the last keys are in the WAL only.
  // As a new process: the census of the first DB is gone with its listener.
  options.listeners = {NewLevelCensusListener()};
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(OpenDb(options, dir.path(), &db).ok());
  const std::optional<double> bits = BitsPerKeyOfTableWith(db.get(), in_wal);
  ASSERT_TRUE(bits.has_value()) << "no table of the WAL's " << in_wal << " keys";
  EXPECT_GT(*bits, 13.0) << "the recovery flush's table got the uniform setting";
  ExpectAllFound(db.get(), keys, "after the reopen");
}

// Options reused for a reopen keep their listener: the census must follow
// the new DB instance (a new info_log) rather than publish the old one's,
// or the new instance's flushes would get the uniform setting.
TEST(LevelPolicyTest, FollowsTheDbAcrossAReopenWithTheSameListener) {
  EnsureRocksDbFilterPoliciesRegistered();
  TempDir dir;
  rocksdb::Options options = PerLevelOptions();
  const std::vector<std::string> keys = RandomKeys(40000, 29);
  // Each instance its own info_log, both alive: the census keys differ.
  const auto first_log = std::make_shared<SilentLogger>();
  options.info_log = first_log;
  {
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(OpenDb(options, dir.path(), &db).ok());
    for (const std::string& key : keys) {
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, ValueFor(key)).ok());
    }
    SettleTree(db.get());
  }
  options.info_log = std::make_shared<SilentLogger>();
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(OpenDb(options, dir.path(), &db).ok());
  const std::vector<std::string> more = RandomKeys(300, 31);
  for (const std::string& key : more) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, ValueFor(key)).ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  const std::optional<double> bits = BitsPerKeyOfTableWith(db.get(), more.size());
  ASSERT_TRUE(bits.has_value()) << "no table of the " << more.size() << " new keys";
  // On failure, what the census held for the new instance (a rare failure
  // under a loaded ctest is not yet explained: this says which side lost).
  const auto census = LevelCensus::Instance().Find(options.info_log.get(), "default");
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  EXPECT_GT(*bits, 13.0) << "the reopened DB's flush got the uniform setting; census for the "
                         << "new instance: " << (census == nullptr ? "none" : "published")
                         << ", live tables " << files.size();
  ExpectAllFound(db.get(), keys, "after the reopen");
  ExpectAllFound(db.get(), more, "after the reopen");
}

// Without the listener the policy cannot see the tree: DB::Open refuses,
// naming what to add; with it (by its option-string id) it opens.
TEST(LevelPolicyTest, NeedsTheCensusListener) {
  EnsureRocksDbFilterPoliciesRegistered();
  TempDir dir;
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::BlockBasedTableOptions table;
  ASSERT_TRUE(
      CreateFilterPolicyStrictly("sstfilter.bloom:10:optimize_levels", &table.filter_policy).ok());
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::Status s = OpenDb(options, dir.path(), &db);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("add listeners=sstfilter.level_census"), std::string::npos)
      << s.ToString();

  rocksdb::ConfigOptions config;
  config.ignore_unknown_options = false;
  rocksdb::DBOptions db_options;
  s = rocksdb::GetDBOptionsFromString(config, rocksdb::DBOptions(),
                                      "create_if_missing=true;listeners=sstfilter.level_census",
                                      &db_options);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_EQ(db_options.listeners.size(), 1u);
  options = rocksdb::Options(db_options, options);
  s = OpenDb(options, dir.path(), &db);
  EXPECT_TRUE(s.ok()) << s.ToString();
}

}  // namespace
}  // namespace sstfilter
