// The per-level policy (optimize_levels) in a real DB: it needs the level
// census listener, holds its memory budget on every tree shape against the
// uniform policy at the same setting, gives the small runs more bits than
// the bottom, and never loses a key.
#include <chrono>
#include <map>
#include <thread>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "db_test_util.h"
#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/write_batch.h"
#include "table/rocksdb/level_accuracy.h"
#include "table/rocksdb/level_census.h"
#include "table/rocksdb/open_db.h"
#include "table/rocksdb/registration.h"

namespace sstfilter {
namespace {

using testing::ExpectAllFound;
using testing::RandomKeys;
using testing::TempDir;
using testing::ValueFor;

// A tree shape the policy must hold its budget on.
struct Shape {
  std::string name;
  rocksdb::CompactionStyle style = rocksdb::kCompactionStyleLevel;
  bool dynamic_level_bytes = true;
  int l0_trigger = 4;   // level0_file_num_compaction_trigger.
  size_t keys = 60000;
};

// Filter bits per key by level over the live tables, and in total.
struct TreeFilters {
  std::map<int, std::pair<uint64_t, uint64_t>> by_level;  // level -> (filter bytes, keys)
  uint64_t bytes = 0;
  uint64_t keys = 0;
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

// Returns once no flush or compaction is pending or running. RocksDB can
// report a compaction pending that it never schedules (its picker wants
// one it cannot pick): nothing running for 10 ms counts as done.
void WaitForBackgroundWork(rocksdb::DB* db) {
  auto idle_since = std::chrono::steady_clock::now();
  for (;;) {
    uint64_t pending = 0, compactions = 0, flush_pending = 0, flushes = 0;
    ASSERT_TRUE(db->GetIntProperty("rocksdb.compaction-pending", &pending));
    ASSERT_TRUE(db->GetIntProperty("rocksdb.num-running-compactions", &compactions));
    ASSERT_TRUE(db->GetIntProperty("rocksdb.mem-table-flush-pending", &flush_pending));
    ASSERT_TRUE(db->GetIntProperty("rocksdb.num-running-flushes", &flushes));
    const auto now = std::chrono::steady_clock::now();
    if (compactions + flush_pending + flushes > 0) {
      idle_since = now;
    } else if (pending == 0 || now - idle_since > std::chrono::milliseconds(10)) {
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
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
  return FiltersOf(db.get());
}

class LevelPolicyShapeTest : public ::testing::TestWithParam<Shape> {};

// Against the uniform policy at the same setting, on the same tree: total
// filter bytes within 5%, more bits per key in the smallest run's level
// than in the deepest level's, and every key found (BuildTree).
TEST_P(LevelPolicyShapeTest, HoldsTheBudget) {
  const Shape& shape = GetParam();
  for (const std::string base :
       {"sstfilter.bloom:10:cache_local", "sstfilter.bloom:10:cache_local:compact_from_level:2"}) {
    const TreeFilters uniform = BuildTree(shape, base, /*census=*/false);
    const TreeFilters levels = BuildTree(shape, base + ":optimize_levels", /*census=*/true);
    ASSERT_GT(uniform.bytes, 0u);
    EXPECT_EQ(levels.keys, uniform.keys) << "the same tree";
    const double ratio = static_cast<double>(levels.bytes) / static_cast<double>(uniform.bytes);
    EXPECT_NEAR(ratio, 1.0, 0.05) << shape.name << " " << base;
    const int top = levels.by_level.begin()->first, bottom = levels.by_level.rbegin()->first;
    ASSERT_LT(top, bottom) << shape.name << ": a tree of one level tests nothing";
    EXPECT_GT(levels.BitsPerKey(top), levels.BitsPerKey(bottom) + 1) << shape.name << " " << base;
    std::string summary;
    for (const auto& [level, bk] : levels.by_level) {
      summary += absl::StrFormat(" L%d %.2f (uniform %.2f)", level, levels.BitsPerKey(level),
                                 uniform.by_level.count(level) ? uniform.BitsPerKey(level) : 0.0);
    }
    std::printf("%s, %s: bytes %.3fx of uniform; bits/key%s\n", shape.name.c_str(),
                base.c_str(), ratio, summary.c_str());
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, LevelPolicyShapeTest,
    ::testing::Values(Shape{"leveled_dynamic"},
                      Shape{"leveled_static", rocksdb::kCompactionStyleLevel, false},
                      Shape{"l0_heavy", rocksdb::kCompactionStyleLevel, true, 12},
                      Shape{"universal", rocksdb::kCompactionStyleUniversal, false}),
    [](const auto& info) { return info.param.name; });

// A table's target from the census: its run's FP proportional to the run's
// keys (a flush: the table itself; a level: all of it, with what is being
// compacted into it).
TEST(TableFpTargetTest, FollowsTheRunsSizes) {
  TreeRuns runs;
  runs.l0_tables = {30000, 30000};
  runs.levels = {0, 100000, 400000, 1600000};
  FilterOptions options;
  options.encoding = EncodingId::kCacheLocal;
  options.optimize_levels = true;
  auto target = [&](int level, size_t n) {
    return TableFpTarget(options, runs, TablePlace{level, EncodingId::kCacheLocal}, n);
  };
  const double flush = target(0, 30000), l1 = target(1, 20000), l3 = target(3, 20000);
  EXPECT_NEAR(l3 / l1, 16.0, 16.0 * 0.1) << "FP in proportion to the runs' keys";
  EXPECT_NEAR(l1 / flush, 100000.0 / 30000, 0.4);
  EXPECT_LT(l3, 0.05);
  // A level being created: the keys compacted into it are its size.
  runs.incoming = {0, 0, 0, 0, 6400000};
  EXPECT_NEAR(target(4, 20000) / target(3, 20000), 4.0, 0.4);
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
