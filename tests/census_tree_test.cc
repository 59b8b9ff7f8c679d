// The census's tree kept in step with flushes and compactions (census_tree.h)
// against the same tree read afresh: after any run of events, the counts
// equal a rebuild's from the resulting table list; events naming unknown
// tables say the tree is out of step.
#include "table/census/census_tree.h"

#include <chrono>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "db_test_util.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"
#include "table/census/census_listener.h"
#include "table/census/census_registry.h"
#include "table/census/level_targets.h"
#include "table/census/open_db.h"
#include "table/rocksdb/registration.h"

namespace sstfilter {
namespace {

rocksdb::LiveFileMetaData File(uint64_t number, int level, uint64_t entries,
                               const std::string& cf = "default") {
  rocksdb::LiveFileMetaData f;
  f.file_number = number;
  f.level = level;
  f.num_entries = entries;
  f.size = entries * 100;
  f.column_family_name = cf;
  f.smallestkey = "a";
  f.largestkey = "z";
  return f;
}

// Keys, tables and fixed parts of every run (reach aside: events keep the
// last rebuild's).
std::vector<uint64_t> Counts(const TreeRuns& runs) {
  std::vector<uint64_t> counts;
  auto add = [&](const RunCensus& r) {
    counts.insert(counts.end(), {r.keys, r.tables, r.fixed_keys, r.fixed_filter_bits});
  };
  for (const RunCensus& r : runs.l0_tables) add(r);
  counts.push_back(~0ull);
  for (const RunCensus& r : runs.levels) add(r);
  return counts;
}

// The files and records a tree of events stands for, to rebuild from.
struct World {
  std::map<uint64_t, rocksdb::LiveFileMetaData> files;
  std::map<uint64_t, TableRecord> records;
  std::map<int, CensusTree::Compaction> running;

  std::vector<rocksdb::LiveFileMetaData> List() const {
    std::vector<rocksdb::LiveFileMetaData> list;
    for (const auto& [number, f] : files) list.push_back(f);
    return list;
  }
  CensusTree::Table TableOf(uint64_t number) const {
    const auto& f = files.at(number);
    return {f.column_family_name, f.level, f.num_entries, true, records.at(number).filter_bits};
  }
};

TEST(CensusTreeTest, EventsKeepTheCountsOfARebuild) {
  std::mt19937_64 rng(11);
  World world;
  uint64_t next = 1;
  for (int level : {1, 5, 6, 6, 6}) {
    world.files[next] = File(next, level, 1000 + rng() % 500);
    world.records[next] = {world.files[next].num_entries, 10 * world.files[next].num_entries};
    ++next;
  }
  CensusTree tree;
  tree.Rebuild(world.List(), world.running, world.records, true);
  int job = 1, finished = 0, moves = 0;
  for (int step = 0; step < 400; ++step) {
    const int what = static_cast<int>(rng() % 3);
    if (what == 0) {  // A flush.
      const uint64_t n = next++;
      world.files[n] = File(n, 0, 900 + rng() % 200);
      world.records[n] = {world.files[n].num_entries, 15 * world.files[n].num_entries};
      ASSERT_TRUE(tree.AddTable(n, world.TableOf(n)));
    } else if (what == 1 && world.running.size() < 2) {  // A compaction starts.
      CensusTree::Compaction c{"default", 1 + static_cast<int>(rng() % 6), {}};
      for (const auto& [number, f] : world.files) {
        bool busy = false;
        for (const auto& [j, r] : world.running) {
          for (uint64_t in : r.inputs) busy = busy || in == number;
        }
        if (!busy && f.level <= c.output_level && rng() % 3 == 0) c.inputs.push_back(number);
      }
      if (c.inputs.empty()) continue;
      world.running[job] = c;
      ASSERT_TRUE(tree.StartCompaction(job++, c));
    } else if (!world.running.empty()) {  // The oldest compaction ends.
      const auto [id, c] = *world.running.begin();
      world.running.erase(world.running.begin());
      const bool trivial = c.inputs.size() == 1 && rng() % 2 == 0;
      std::vector<std::pair<uint64_t, CensusTree::Table>> outputs;
      uint64_t entries = 0;
      for (uint64_t in : c.inputs) entries += world.files.at(in).num_entries;
      for (uint64_t in : c.inputs) world.files.erase(in);
      const uint64_t n = trivial ? c.inputs[0] : next++;
      world.files[n] = File(n, c.output_level, entries);
      if (!trivial) world.records[n] = {entries, 9 * entries};
      CensusTree::Table out = world.TableOf(n);
      if (trivial) out.entries = 0;  // A trivial move's event carries no properties.
      outputs.emplace_back(n, out);
      ASSERT_TRUE(tree.FinishCompaction(id, true, outputs));
      ++finished, moves += trivial;
    }
    CensusTree fresh;
    fresh.Rebuild(world.List(), world.running, world.records, true);
    ASSERT_EQ(Counts(tree.Runs("default")), Counts(fresh.Runs("default"))) << "step " << step;
  }
  EXPECT_GT(finished, 50);
  EXPECT_GT(moves, 5);
}

TEST(CensusTreeTest, BytesPerEntryOverTablesWithKnownEntries) {
  std::vector<rocksdb::LiveFileMetaData> files = {File(1, 6, 10), File(2, 6, 10), File(3, 5, 0),
                                                  File(4, 6, 10, "other")};
  files[0].size = 1000, files[1].size = 3000;
  files[2].size = 9999;  // Properties not loaded.
  CensusTree tree;
  tree.Rebuild(files, {}, {}, true);
  EXPECT_EQ(tree.BytesPerEntry("default"), 200);
  EXPECT_EQ(tree.BytesPerEntry("other"), 100);  // Each column family its own.
  EXPECT_EQ(tree.BytesPerEntry("none"), 0);
  tree.Rebuild({}, {}, {}, true);
  EXPECT_EQ(tree.BytesPerEntry("default"), 0);
}

// A flush's entries are what the next flush is expected to hold
// (ExpectedTableEntries): kept per column family, by flushes alone, across
// rebuilds.
TEST(CensusTreeTest, KeepsTheLastFlushsEntries) {
  CensusTree tree;
  tree.Rebuild({File(1, 6, 1000)}, {}, {}, true);
  EXPECT_EQ(tree.Runs("default").last_flush_keys, 0u);
  ASSERT_TRUE(tree.AddTable(2, {"default", 0, 500, false, 0}));
  ASSERT_TRUE(tree.AddTable(3, {"other", 0, 70, false, 0}));
  EXPECT_EQ(tree.Runs("default").last_flush_keys, 500u);
  EXPECT_EQ(tree.Runs("other").last_flush_keys, 70u);
  ASSERT_TRUE(tree.StartCompaction(1, {"default", 6, {2}}));
  ASSERT_TRUE(tree.FinishCompaction(1, true, {{4, {"default", 6, 900, false, 0}}}));
  EXPECT_EQ(tree.Runs("default").last_flush_keys, 500u) << "a compaction's output is no flush";
  tree.Rebuild({File(1, 6, 1000), File(4, 6, 900)}, {}, {}, true);
  EXPECT_EQ(tree.Runs("default").last_flush_keys, 500u);
}

// A flush's table has no measured reach until a rebuild reads its range;
// a compaction's outputs below L0 count at their level's.
TEST(CensusTreeTest, AFlushsTableIsUnmeasuredUntilTheNextRebuild) {
  CensusTree tree;
  tree.Rebuild({File(1, 6, 1000)}, {}, {}, true);
  EXPECT_FALSE(tree.ReachUnmeasured());
  ASSERT_TRUE(tree.AddTable(2, {"default", 0, 500, false, 0}));
  EXPECT_TRUE(tree.ReachUnmeasured());
  tree.Rebuild({File(1, 6, 1000), File(2, 0, 500)}, {}, {}, true);
  EXPECT_FALSE(tree.ReachUnmeasured());
  ASSERT_TRUE(tree.StartCompaction(1, {"default", 6, {2}}));
  ASSERT_TRUE(tree.FinishCompaction(1, true, {{3, {"default", 6, 500, false, 0}}}));
  EXPECT_FALSE(tree.ReachUnmeasured());
  ASSERT_TRUE(tree.AddTable(4, {"other", 0, 70, false, 0}));
  EXPECT_TRUE(tree.ReachUnmeasured()) << "another column family's flush";
}

TEST(CensusTreeTest, UnknownTablesPutItOutOfStep) {
  CensusTree tree;
  tree.Rebuild({File(1, 6, 1000)}, {}, {}, true);
  EXPECT_FALSE(tree.StartCompaction(1, {"default", 6, {2}})) << "no table 2";
  EXPECT_FALSE(tree.FinishCompaction(7, true, {})) << "no job 7";
  EXPECT_FALSE(tree.AddTable(1, {"default", 0, 10, false, 0})) << "table 1 twice";
  EXPECT_TRUE(tree.StartCompaction(2, {"default", 6, {1}}));
  EXPECT_FALSE(tree.StartCompaction(3, {"default", 6, {1}})) << "1 is already an input";
  // A failed compaction leaves its inputs where they were.
  EXPECT_TRUE(tree.FinishCompaction(2, false, {}));
  ASSERT_EQ(tree.Runs("default").levels.size(), 7u);
  EXPECT_EQ(tree.Runs("default").levels[6].keys, 1000u);
  EXPECT_EQ(tree.Runs("default").levels[6].tables, 1u);
}

// Tables the rebuild loop is to rewrite count free at their level (their
// keys, not their bits), across a rebuild, until the set is replaced; one
// that is a compaction's input stays the compaction's.
TEST(CensusTreeTest, PendingRewritesCountFreeAtTheirLevel) {
  CensusTree tree;
  const std::map<uint64_t, TableRecord> records = {{1, {1000, 8000}}, {2, {500, 4000}}};
  tree.Rebuild({File(1, 6, 1000), File(2, 6, 500)}, {}, records, true);
  const RunCensus before = tree.Runs("default").levels[6];
  EXPECT_EQ(before.fixed_keys, 1500u);
  EXPECT_EQ(before.fixed_filter_bits, 12000u);
  tree.SetPendingRewrites({1, 99});  // 99: no such table.
  RunCensus pending = tree.Runs("default").levels[6];
  EXPECT_EQ(pending.keys, 1500u);
  EXPECT_EQ(pending.tables, 2u);
  EXPECT_EQ(pending.fixed_keys, 500u);
  EXPECT_EQ(pending.fixed_filter_bits, 4000u);
  tree.Rebuild({File(1, 6, 1000), File(2, 6, 500)}, {}, records, true);
  EXPECT_EQ(Counts(tree.Runs("default")), Counts([&] {
              TreeRuns runs;
              runs.levels.resize(7);
              runs.levels[6] = pending;
              return runs;
            }()));
  ASSERT_TRUE(tree.StartCompaction(5, {"default", 6, {2}}));
  tree.SetPendingRewrites({2});  // 1 fixed again; 2 the compaction's.
  pending = tree.Runs("default").levels[6];
  EXPECT_EQ(pending.fixed_keys, 1000u);
  EXPECT_EQ(pending.fixed_filter_bits, 8000u);
  tree.SetPendingRewrites({});
  ASSERT_TRUE(tree.FinishCompaction(5, false, {}));
  EXPECT_EQ(Counts(tree.Runs("default")), Counts([&] {
              TreeRuns runs;
              runs.levels.resize(7);
              runs.levels[6] = before;
              return runs;
            }()));
}

// In a real DB, leveled and universal: what the listener published from
// the events (no periodic rebuild) equals a rebuild from RocksDB's
// metadata once the DB is idle.
class CensusInDbTest : public ::testing::TestWithParam<rocksdb::CompactionStyle> {};

TEST_P(CensusInDbTest, PublishedCountsMatchTheMetadata) {
  EnsureRocksDbFilterPoliciesRegistered();
  testing::TempDir dir;
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compaction_style = GetParam();
  options.write_buffer_size = 64 << 10;
  options.target_file_size_base = 64 << 10;
  options.max_bytes_for_level_base = 256 << 10;
  options.compression = rocksdb::kNoCompression;
  options.listeners.push_back(std::make_shared<LevelCensusListener>(
      std::numeric_limits<double>::infinity()));
  rocksdb::BlockBasedTableOptions table;
  ASSERT_TRUE(CreateFilterPolicyStrictly("sstfilter.bloom:10:cache_local:optimize_levels",
                                         &table.filter_policy)
                  .ok());
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(OpenDb(options, dir.path(), &db).ok());
  const std::vector<std::string> keys = testing::RandomKeys(40000, 3);
  for (const std::string& key : keys) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, testing::ValueFor(key)).ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  testing::WaitForBackgroundWork(db.get());
  // A last event after the background work: a flush of a few keys.
  for (size_t i = 0; i < 100; ++i) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), keys[i] + "x", "v").ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  auto keys_and_tables = [](const TreeRuns& runs) {
    std::vector<uint64_t> v;
    for (const RunCensus& r : runs.l0_tables) v.insert(v.end(), {r.keys, r.tables});
    v.push_back(~0ull);
    for (const RunCensus& r : runs.levels) v.insert(v.end(), {r.keys, r.tables});
    while (v.size() > 2 && v.back() == 0) v.pop_back();
    return v;
  };
  // RocksDB can report the DB idle before the listener has been told of
  // the last job's end (or while a compaction is still due): compare once
  // both agree the tree is still, for up to 10 seconds.
  std::vector<uint64_t> census, metadata;
  std::shared_ptr<const TreeRuns> published;
  std::vector<rocksdb::LiveFileMetaData> files;
  for (int attempt = 0; attempt < 200; ++attempt) {
    testing::WaitForBackgroundWork(db.get());
    files.clear();
    db->GetLiveFilesMetaData(&files);
    CensusTree fresh;
    fresh.Rebuild(files, {}, {}, true);
    published = LevelCensus::Instance().Find(CensusKeyOf(db.get()), "default");
    ASSERT_NE(published, nullptr);
    census = keys_and_tables(*published), metadata = keys_and_tables(fresh.Runs("default"));
    if (census == metadata) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_GT(files.size(), 10u);
  EXPECT_EQ(census, metadata);
  // With the levels' targets from the DB's options (filter/allocation/steady_tree.h).
  const LevelTargets& targets = published->targets;
  EXPECT_EQ(targets.leveled, GetParam() == rocksdb::kCompactionStyleLevel);
  if (targets.leveled) {
    EXPECT_EQ(targets.l0_tables, (options.level0_file_num_compaction_trigger + 1) / 2);
    EXPECT_EQ(targets.dynamic, options.level_compaction_dynamic_level_bytes);
    EXPECT_EQ(targets.multiplier, options.max_bytes_for_level_multiplier);
  }
}

TEST(LevelTargetsTest, FromTheColumnFamilysOptions) {
  rocksdb::ColumnFamilyOptions options;
  options.compaction_style = rocksdb::kCompactionStyleLevel;
  options.level0_file_num_compaction_trigger = 4;
  options.level_compaction_dynamic_level_bytes = false;
  options.max_bytes_for_level_base = 8 << 20;
  options.max_bytes_for_level_multiplier = 8;
  LevelTargets t = LevelTargetsOf(options, /*bytes_per_entry=*/128);
  EXPECT_TRUE(t.leveled);
  EXPECT_EQ(t.l0_tables, 2);
  EXPECT_FALSE(t.dynamic);
  EXPECT_EQ(t.multiplier, 8);
  EXPECT_EQ(t.base_entries, 65536);
  options.level0_file_num_compaction_trigger = 5;
  EXPECT_EQ(LevelTargetsOf(options, 128).l0_tables, 3);
  options.level0_file_num_compaction_trigger = 1;
  EXPECT_EQ(LevelTargetsOf(options, 128).l0_tables, 1);
  EXPECT_EQ(LevelTargetsOf(options, 0).base_entries, 0);  // Entries unknown: no cap.
  EXPECT_FALSE(t.l0_stays);
  options.disable_auto_compactions = true;  // L0 and the levels keep what they get.
  EXPECT_FALSE(LevelTargetsOf(options, 128).leveled);
  EXPECT_TRUE(LevelTargetsOf(options, 128).l0_stays);
  options.disable_auto_compactions = false;
  options.compaction_style = rocksdb::kCompactionStyleUniversal;
  EXPECT_FALSE(LevelTargetsOf(options, 128).leveled);
}

// L1's target in entries, from the tables a rebuild reads: here the one at
// the open of a DB that holds tables.
TEST(CensusTargetsTest, BaseLevelInEntriesFromTheLiveTables) {
  EnsureRocksDbFilterPoliciesRegistered();
  testing::TempDir dir;
  rocksdb::Options options;
  options.create_if_missing = true;
  options.max_bytes_for_level_base = 256 << 10;
  options.compression = rocksdb::kNoCompression;
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(OpenDb(options, dir.path(), &db).ok());
  for (const std::string& key : testing::RandomKeys(5000, 4)) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, testing::ValueFor(key)).ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  double bytes = 0, entries = 0;
  for (const rocksdb::LiveFileMetaData& f : files) bytes += f.size, entries += f.num_entries;
  ASSERT_GT(entries, 0);
  db.reset();
  options.listeners.push_back(std::make_shared<LevelCensusListener>(
      std::numeric_limits<double>::infinity()));
  ASSERT_TRUE(OpenDb(options, dir.path(), &db).ok());
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "k", "v").ok());
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());  // An event: the first rebuild.
  const auto published = LevelCensus::Instance().Find(CensusKeyOf(db.get()), "default");
  ASSERT_NE(published, nullptr);
  EXPECT_TRUE(published->targets.leveled);
  EXPECT_NEAR(published->targets.base_entries, (256 << 10) / (bytes / entries), 1e-6);

  // Another column family's options are not known: no targets for it.
  rocksdb::ColumnFamilyHandle* other = nullptr;
  ASSERT_TRUE(db->CreateColumnFamily(options, "other", &other).ok());
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), other, "k", "v").ok());
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions(), other).ok());
  const auto other_runs = LevelCensus::Instance().Find(CensusKeyOf(db.get()), "other");
  ASSERT_NE(other_runs, nullptr);
  EXPECT_FALSE(other_runs->targets.leveled);
  ASSERT_TRUE(db->DestroyColumnFamilyHandle(other).ok());
}

INSTANTIATE_TEST_SUITE_P(Styles, CensusInDbTest,
                         ::testing::Values(rocksdb::kCompactionStyleLevel,
                                           rocksdb::kCompactionStyleUniversal));

}  // namespace
}  // namespace sstfilter
