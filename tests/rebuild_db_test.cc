// The rebuild loop (table/census/rebuild_loop.h) in a DB loaded before any
// Get: its tables were planned for no known share of Gets finding their
// key; once its Gets say (here, from the filters' answers, no statistics),
// the tables off the new plan are rewritten in place, and every key is
// still found.
#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/table.h"
#include "table/census/census_listener.h"
#include "table/census/census_registry.h"
#include "table/census/filter_answers.h"
#include "table/census/open_db.h"
#include "table/census/traffic_file.h"
#include "tests/cache_aware_db_util.h"
#include "tests/db_test_util.h"
#include "tests/rebuild_log_util.h"
#include "tests/warning_log.h"

namespace sstfilter {
namespace {

using cache_aware_testing::AnsweredOptions;
using cache_aware_testing::kAnsweredTestWindow;
using cache_aware_testing::kKeys;
using cache_aware_testing::LongValueFor;
using cache_aware_testing::WriteAndFlush;

// The deepest level's tables: file number -> filter bytes.
std::map<uint64_t, uint64_t> DeepestTables(rocksdb::DB* db, int* deepest) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  *deepest = 0;
  for (const auto& f : files) *deepest = std::max(*deepest, f.level);
  rocksdb::TablePropertiesCollection props;
  EXPECT_TRUE(db->GetPropertiesOfAllTables(&props).ok());
  std::map<uint64_t, uint64_t> tables;
  for (const auto& f : files) {
    if (f.level != *deepest) continue;
    for (const auto& [path, p] : props) {
      if (path.size() >= f.name.size() &&
          path.compare(path.size() - f.name.size(), f.name.size(), f.name) == 0) {
        tables[f.file_number] = p->filter_size;
      }
    }
  }
  return tables;
}

uint64_t LiveBytes(rocksdb::DB* db) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  uint64_t bytes = 0;
  for (const auto& f : files) bytes += f.size;
  return bytes;
}

class RebuildDbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_ = AnsweredOptions(env_.get(), listener_);
    options_.info_log = log_;
    ASSERT_TRUE(OpenDb(options_, "/db", &db_).ok());
    WriteAndFlush(db_.get(), keys_, 0, kKeys);
  }
  void TearDown() override {
    db_.reset();
    FilterAnswers::SetSampleEvery(FilterAnswers::kSampleEvery);
  }

  // Gets keys of every age until the loop has been idle (no new rewrite)
  // for `quiet` after at least one more than `after` in this listener (of
  // the DB at `path`), or `limit` passes.
  // Absent keys (`absent`) or keys of the DB, through `listener` (the
  // fixture's if null).
  LevelCensusListener::Rebuilt GetUntilRebuilt(std::chrono::seconds quiet,
                                               std::chrono::seconds limit, uint64_t after = 0,
                                               const std::string& path = "/db", bool absent = false,
                                               LevelCensusListener* listener = nullptr) {
    const std::vector<std::string>& keys = absent ? absent_ : keys_;
    if (listener == nullptr) listener = listener_.get();
    const auto start = std::chrono::steady_clock::now();
    auto changed = start;
    LevelCensusListener::Rebuilt last;
    std::string value;
    for (size_t round = 0; std::chrono::steady_clock::now() - start < limit; ++round) {
      for (size_t i = 0; i < 2000; ++i) {
        const std::string& key = keys[(round * 2000 + i) * 7 % kKeys];
        const rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), key, &value);
        EXPECT_TRUE(absent ? s.IsNotFound() : s.ok()) << s.ToString();
      }
      const LevelCensusListener::Rebuilt now = listener->RebuiltSoFar(path);
      if (now.tables != last.tables) changed = std::chrono::steady_clock::now(), last = now;
      if (last.tables > after && std::chrono::steady_clock::now() - changed > quiet) break;
    }
    return last;
  }

  // Opens the DB again (closed) under rebuild_mb_s:0 with a listener of
  // its own (returned; nullptr if it failed), and gives the census the DB:
  // a key written and flushed (an event).
  std::shared_ptr<LevelCensusListener> ReopenWithoutRebuilds() {
    rocksdb::BlockBasedTableOptions table =
        *options_.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
    const std::string policy = std::string(cache_aware_testing::kCacheAware) + ":rebuild_mb_s:0";
    if (!CreateFilterPolicyStrictly(policy, &table.filter_policy).ok()) return nullptr;
    options_.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    auto listener = std::make_shared<LevelCensusListener>(LevelCensusListener::kWorkPerRebuild,
                                                          kAnsweredTestWindow);
    options_.listeners = {listener};
    if (!OpenDb(options_, "/db", &db_).ok() ||
        !db_->Put(rocksdb::WriteOptions(), "a-new-key", "v").ok() ||
        !db_->Flush(rocksdb::FlushOptions()).ok()) {
      return nullptr;
    }
    return listener;
  }

  // The DB's LOG at INFO: the loop's lines.
  const std::shared_ptr<testing::WarningLog> log_ =
      std::make_shared<testing::WarningLog>(rocksdb::InfoLogLevel::INFO_LEVEL);
  const std::unique_ptr<rocksdb::Env> env_{rocksdb::NewMemEnv(rocksdb::Env::Default())};
  const std::vector<std::string> keys_ = testing::RandomKeys(kKeys, 61);
  const std::vector<std::string> absent_ = testing::RandomKeys(kKeys, 62);
  const std::shared_ptr<LevelCensusListener> listener_ = std::make_shared<LevelCensusListener>(
      LevelCensusListener::kWorkPerRebuild, kAnsweredTestWindow,
      /*rebuild_bytes_per_second=*/1e9);
  rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
};

// Loaded with nothing known, the deepest level kept its filters (the
// uniform setting while the share is assumed); every Get then finds its key, the plan for
// that leaves the deepest level unfiltered (cache_aware_db_test's
// TheDbsStatisticsSay...), and the loop rewrites its tables without
// filters, each once, writing less than the DB holds twice over.
TEST_F(RebuildDbTest, PresentGetsRebuildTheDeepestLevelWithoutFilters) {
  int deepest = 0;
  const std::map<uint64_t, uint64_t> before = DeepestTables(db_.get(), &deepest);
  size_t filtered_before = 0;
  for (const auto& [number, bytes] : before) filtered_before += bytes > 0;
  ASSERT_GT(filtered_before, before.size() / 2) << "the load left the deepest level unfiltered";
  const uint64_t db_bytes = LiveBytes(db_.get());

  const LevelCensusListener::Rebuilt rebuilt =
      GetUntilRebuilt(std::chrono::seconds(3), std::chrono::seconds(90));
  ASSERT_GT(rebuilt.tables, 0u) << "nothing rebuilt";
  int deepest_after = 0;
  const std::map<uint64_t, uint64_t> after = DeepestTables(db_.get(), &deepest_after);
  EXPECT_EQ(deepest_after, deepest);
  size_t filtered_after = 0, new_tables = 0;
  for (const auto& [number, bytes] : after) {
    filtered_after += bytes > 0;
    if (before.count(number) == 0) {
      ++new_tables;
      EXPECT_EQ(bytes, 0u) << "table " << number << " rebuilt with a filter";
    }
  }
  std::printf(
      "deepest level L%d: %zu of %zu tables filtered before, %zu of %zu after; %llu "
      "rewrites wrote %llu bytes (the DB: %llu)\n",
      deepest, filtered_before, before.size(), filtered_after, after.size(),
      static_cast<unsigned long long>(rebuilt.tables),
      static_cast<unsigned long long>(rebuilt.bytes), static_cast<unsigned long long>(db_bytes));
  EXPECT_LT(filtered_after, filtered_before / 4);
  EXPECT_GT(new_tables, 0u);
  EXPECT_LE(rebuilt.bytes, 2 * db_bytes);
  testing::ExpectAllFound(db_.get(), keys_, "after the rebuilds", LongValueFor);
  std::string value;
  for (const std::string& key : testing::AbsentKeys(2000, 5)) {
    ASSERT_TRUE(db_->Get(rocksdb::ReadOptions(), key, &value).IsNotFound());
  }
}

// Once the tables follow the plan, the same Gets rewrite nothing more: a
// settled tree whose workload does not change costs no writes, and the
// DB's LOG says how the loop's reckonings found the tables off the plan.
TEST_F(RebuildDbTest, ASettledTreeIsNotRewrittenAgain) {
  const LevelCensusListener::Rebuilt settled =
      GetUntilRebuilt(std::chrono::seconds(3), std::chrono::seconds(90));
  ASSERT_GT(settled.tables, 0u);
  const LevelCensusListener::Rebuilt later =
      GetUntilRebuilt(std::chrono::seconds(8), std::chrono::seconds(8), settled.tables);
  EXPECT_EQ(later.tables, settled.tables) << "the loop went on rewriting a settled tree";
  EXPECT_EQ(later.bytes, settled.bytes);
  std::vector<std::string> reckonings;
  for (const std::string& line : log_->Lines()) {
    if (line.find("sstfilter: rebuild loop: ") != std::string::npos) reckonings.push_back(line);
  }
  ASSERT_GE(reckonings.size(), 1u) << "no reckoning in the LOG";
  for (const std::string& line : reckonings) {
    EXPECT_NE(line.find("tables off today's plan"), std::string::npos) << line;
    EXPECT_NE(line.find("; the plan's spread: "), std::string::npos) << line;
  }
  // One said what the loop then rewrote (an early one, before the share
  // was told, may have found nothing worth it).
  EXPECT_TRUE(std::any_of(reckonings.begin(), reckonings.end(), [](const std::string& line) {
    return line.find(", 0 to rewrite") == std::string::npos;
  })) << reckonings.back();
}

// A flush's table of one key lies outside almost every Get's key: the
// loop's next reckoning weighs it at the reach its key range measures,
// not as a table every Get reaches (what the census counts a table it has
// not yet read the range of).
TEST_F(RebuildDbTest, ATableAFlushAddedIsWeighedAtTheReachOfItsKeyRange) {
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "a-new-key", "v").ok());
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  // A reckoning under way as the flush ended may have read the tree before
  // it: the second one after it began after it.
  const uint64_t before = listener_->RebuiltSoFar("/db").reckonings;
  std::string value;
  const auto start = std::chrono::steady_clock::now();
  for (size_t round = 0; listener_->RebuiltSoFar("/db").reckonings < before + 2 &&
                         std::chrono::steady_clock::now() - start < std::chrono::seconds(60);
       ++round) {
    for (size_t i = 0; i < 500; ++i) {
      ASSERT_TRUE(db_->Get(rocksdb::ReadOptions(), absent_[(round * 500 + i) % kKeys], &value)
                      .IsNotFound());
    }
  }
  ASSERT_GE(listener_->RebuiltSoFar("/db").reckonings, before + 2) << "the loop never reckoned";
  const auto runs = LevelCensus::Instance().Find(CensusKeyOf(db_.get()), "default");
  ASSERT_NE(runs, nullptr);
  const auto one_key = std::find_if(runs->l0_tables.begin(), runs->l0_tables.end(),
                                    [](const RunCensus& t) { return t.keys == 1; });
  ASSERT_NE(one_key, runs->l0_tables.end()) << "the one-key table left L0";
  EXPECT_LT(one_key->reach, 0.01);
}

// rebuild_mb_s:0 in the policy id turns the loop off: the same Gets, the
// same tables off the plan, no rewrite.
TEST_F(RebuildDbTest, RebuildMbS0RewritesNothing) {
  db_.reset();
  const std::shared_ptr<LevelCensusListener> listener = ReopenWithoutRebuilds();
  ASSERT_NE(listener, nullptr);
  std::string value;
  const auto start = std::chrono::steady_clock::now();
  for (size_t round = 0; std::chrono::steady_clock::now() - start < std::chrono::seconds(12);
       ++round) {
    for (size_t i = 0; i < 2000; ++i) {
      ASSERT_TRUE(
          db_->Get(rocksdb::ReadOptions(), keys_[(round * 2000 + i) * 7 % kKeys], &value).ok());
    }
  }
  EXPECT_EQ(listener->RebuiltSoFar("/db").tables, 0u);
}

// A close while the loop rewrites (the loop paced at 1 GB/s: one rewrite
// after another): the close waits for the rewrite under way or cancels it
// (RocksDB's compactions install atomically), no loop outlives it, no key
// is lost, and the next
// instance, once an event gives it the DB (a flush), takes up the
// rewrites where they stopped, for the share its last instance left.
TEST_F(RebuildDbTest, ACloseDuringTheRebuildsLosesNoKeyAndTheNextInstanceGoesOn) {
  int deepest = 0;
  const size_t tables = DeepestTables(db_.get(), &deepest).size();
  std::string value;
  const auto start = std::chrono::steady_clock::now();
  for (size_t round = 0; listener_->RebuiltSoFar("/db").tables == 0 &&
                         std::chrono::steady_clock::now() - start < std::chrono::seconds(60);
       ++round) {
    for (size_t i = 0; i < 2000; ++i) {
      ASSERT_TRUE(
          db_->Get(rocksdb::ReadOptions(), keys_[(round * 2000 + i) * 7 % kKeys], &value).ok());
    }
  }
  ASSERT_GT(listener_->RebuiltSoFar("/db").tables, 0u) << "nothing rebuilt";
  db_.reset();  // At once: the loop is rewriting the next table.
  const uint64_t before_close = listener_->RebuiltSoFar("/db").tables;
  // The listener outlives the DB: a loop the last rewrite's end started
  // again would look at the DB that is gone within its tick.
  std::this_thread::sleep_for(RebuildLoop::kTick * 3 / 2);

  ASSERT_TRUE(OpenDb(options_, "/db", &db_).ok());
  testing::ExpectAllFound(db_.get(), keys_, "after the close", LongValueFor);
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "a-new-key", "v").ok());
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  const LevelCensusListener::Rebuilt rebuilt =
      GetUntilRebuilt(std::chrono::seconds(3), std::chrono::seconds(90), before_close);
  EXPECT_GT(rebuilt.tables, before_close) << "the next instance rebuilt nothing";
  size_t filtered = 0;
  for (const auto& [number, bytes] : DeepestTables(db_.get(), &deepest)) filtered += bytes > 0;
  EXPECT_LT(filtered, tables / 4);
  testing::ExpectAllFound(db_.get(), keys_, "after the rebuilds", LongValueFor);
}

// A burst with compactions off: 16 flushes of overwrites across the key
// range stay in L0 (their filters take the cache's room), and the Gets
// after it, every one finding its key, move the cache model's plan. The loop's rewrites,
// weighed by that model, land on the plan they were weighed against: none
// is rewritten again after a reopen, twice, and every key is still found.
TEST_F(RebuildDbTest, AfterABurstWithCompactionsOffNoRewriteIsRewrittenAgain) {
  db_.reset();
  options_.disable_auto_compactions = true;
  auto reopen = [&] {
    auto listener = std::make_shared<LevelCensusListener>(LevelCensusListener::kWorkPerRebuild,
                                                          kAnsweredTestWindow,
                                                          /*rebuild_bytes_per_second=*/1e9);
    options_.listeners = {listener};
    EXPECT_TRUE(OpenDb(options_, "/db", &db_).ok());
    return listener;
  };
  std::shared_ptr<LevelCensusListener> listener = reopen();
  for (size_t flush = 0; flush < 16; ++flush) {
    for (size_t i = flush; i < kKeys; i += 32) {
      ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), keys_[i], LongValueFor(keys_[i])).ok());
    }
    ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  }
  GetUntilRebuilt(std::chrono::seconds(3), std::chrono::seconds(90), 0, "/db", /*absent=*/false,
                  listener.get());
  ASSERT_GE(testing::RewriteOutputs(log_->Lines()).size(), 1u) << "the Gets move the plan\n"
                                                               << testing::LoopLines(log_->Lines());
  for (int round = 1; round <= 2; ++round) {
    const std::set<std::string> rewritten = testing::RewriteOutputs(log_->Lines());
    db_.reset();
    const size_t before = log_->Lines().size();
    listener = reopen();
    ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "a-new-key", "v").ok());
    ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
    GetUntilRebuilt(std::chrono::seconds(5), std::chrono::seconds(10), 0, "/db", /*absent=*/false,
                    listener.get());
    const std::vector<std::string> lines = log_->Lines();
    const std::string again =
        testing::LoopLines(std::vector<std::string>(lines.begin() + before, lines.end()));
    ASSERT_GT(listener->RebuiltSoFar("/db").reckonings, 0u)
        << "the loop did not reckon after reopen " << round;
    for (const std::string& number : rewritten) {
      EXPECT_EQ(again.find("table #" + number + " "), std::string::npos)
          << "#" << number << " rewritten before reopen " << round << ", again after it:\n"
          << again;
    }
  }
  testing::ExpectAllFound(db_.get(), keys_, "after the burst and the rewrites", LongValueFor);
}

// The DB's traffic file once it names a move of `level` (the census
// writes it on a thread of its own), or after 10 s as it is.
TrafficSummary TrafficFileNaming(rocksdb::Env* env, int level) {
  const std::string path = std::string("/db/") + kTrafficFileName;
  absl::StatusOr<TrafficSummary> summary = absl::NotFoundError(path);
  for (int i = 0; i < 100; ++i) {
    std::string text;
    if (rocksdb::ReadFileToString(env, path, &text).ok()) summary = ParseTrafficFile(text);
    if (summary.ok() && summary->level_moves.count(level) == 1) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(summary.ok()) << summary.status();
  return summary.ok() ? *summary : TrafficSummary();
}

// A level's move, once begun, is the DB's, not one instance's: the
// traffic file names it as the loop begins it (the deepest level, to fewer
// bits), and the next instance, though it rewrites nothing
// (rebuild_mb_s:0), carries it on as made when the file said, so that the
// loop of the instance after it still carries the move through and does
// not move the level back within kPaybackHorizon.
TEST_F(RebuildDbTest, AMoveBegunIsCarriedToTheNextInstance) {
  int deepest = 0;
  DeepestTables(db_.get(), &deepest);
  ASSERT_GT(GetUntilRebuilt(std::chrono::seconds(0), std::chrono::seconds(60)).tables, 0u)
      << "nothing rebuilt";
  db_.reset();
  TrafficSummary left = TrafficFileNaming(env_.get(), deepest);
  ASSERT_EQ(left.level_moves.count(deepest), 1u) << "the traffic file does not name the move";
  EXPECT_TRUE(left.level_moves.at(deepest).fewer_bits);
  // As an earlier instance would have left it: the move 5 minutes ago, and
  // a table that is not live (the next instance's file names none such).
  left.level_moves.at(deepest).unix_seconds -= 300;
  const int64_t planted = left.level_moves.at(deepest).unix_seconds;
  left.tables[999999] = 0.0;
  ASSERT_TRUE(rocksdb::WriteStringToFile(env_.get(), FormatTrafficFile(left),
                                         std::string("/db/") + kTrafficFileName)
                  .ok());

  ASSERT_NE(ReopenWithoutRebuilds(), nullptr);  // Its first event reads the file.
  testing::ExpectAllFound(db_.get(), keys_, "after the reopen", LongValueFor);
  db_.reset();
  options_.listeners.clear();  // The listener goes: what it posted is written.
  const TrafficSummary carried = TrafficFileNaming(env_.get(), deepest);
  ASSERT_EQ(carried.tables.count(999999), 0u) << "the next instance wrote no traffic file";
  ASSERT_EQ(carried.level_moves.count(deepest), 1u) << "the next instance dropped the move";
  EXPECT_TRUE(carried.level_moves.at(deepest).fewer_bits);
  // Within a second (each instance rounds to whole seconds), not made again.
  EXPECT_NEAR(static_cast<double>(carried.level_moves.at(deepest).unix_seconds),
              static_cast<double>(planted), 1.0);
}

// Universal compaction, and a restart that replays writes from the WAL:
// the sorted runs below L0 are rewritten as the levels are, each table
// into its own level (the run keeps its place), and every key is still
// found, those the WAL gave back too.
TEST_F(RebuildDbTest, UniversalSortedRunsAreRebuiltInPlaceAfterARestartWithWal) {
  db_.reset();
  options_.compaction_style = rocksdb::kCompactionStyleUniversal;
  ASSERT_TRUE(OpenDb(options_, "/universal", &db_).ok());
  WriteAndFlush(db_.get(), keys_, 0, kKeys - 500);
  ASSERT_TRUE(db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
  for (size_t i = kKeys - 500; i < kKeys; ++i) {  // In the WAL only.
    ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), keys_[i], LongValueFor(keys_[i])).ok());
  }
  db_.reset();
  ASSERT_TRUE(OpenDb(options_, "/universal", &db_).ok());
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "a-new-key", "v").ok());
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());  // An event: the loop starts.
  int deepest = 0;
  const std::map<uint64_t, uint64_t> before = DeepestTables(db_.get(), &deepest);
  ASSERT_GT(deepest, 0);
  const LevelCensusListener::Rebuilt rebuilt =
      GetUntilRebuilt(std::chrono::seconds(3), std::chrono::seconds(60), 0, "/universal");
  int deepest_after = 0;
  const std::map<uint64_t, uint64_t> after = DeepestTables(db_.get(), &deepest_after);
  size_t filtered_before = 0, filtered_after = 0;
  for (const auto& [number, bytes] : before) filtered_before += bytes > 0;
  for (const auto& [number, bytes] : after) filtered_after += bytes > 0;
  std::printf(
      "universal: L%d, %zu of %zu tables filtered before, %zu of %zu after, %llu rewrites\n",
      deepest, filtered_before, before.size(), filtered_after, after.size(),
      static_cast<unsigned long long>(rebuilt.tables));
  EXPECT_EQ(deepest_after, deepest);
  EXPECT_GT(rebuilt.tables, 0u) << "nothing rebuilt";
  EXPECT_LT(filtered_after, filtered_before);
  testing::ExpectAllFound(db_.get(), keys_, "after the rebuilds", LongValueFor);
}

// Banded filters cut into many partitions (256-byte metadata blocks), as
// db_bench's loaded DBs are at scale: absent Gets move the levels' bits,
// the loop rewrites tables to the plan, and the DB's next instance, under
// the same Gets, rewrites nothing. A partition spends more bits a key than
// one filter of the whole table: with the plan's bits counted as one
// filter's, this tree's loop rewrote nothing in 90 s, and an 8M-key copy
// loaded through db_bench rewrote the same tables at every open. Where
// RocksDB cuts the filter's partitions apart from the index's (its default
// from 10), at the keys the builder's nominal setting fits, with a small
// last one, and each under its full last key in the partition index, a
// plan that counted partitions of filter bytes alone left the tables
// rewritten 1.3 bits a key above it, to be rewritten at every open. Where
// RocksDB cuts the filter's partitions apart from the index's (its
// default from 10), at the keys the builder's nominal setting fits, with a
// small last one, and each under its full last key in the partition index,
// a plan that counted partitions of filter bytes alone left the tables
// rewritten 1.3 bits a key above it, to be rewritten at every open; and a
// chance spread in the few sampled reads the last instance carried moved
// the next one's plan.
class RebuildPartitionedDbTest : public RebuildDbTest {
 protected:
  void SetUp() override {
    rocksdb::Options options = AnsweredOptions(env_.get(), listener_);
    rocksdb::BlockBasedTableOptions table =
        *options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
    ASSERT_TRUE(CreateFilterPolicyStrictly("sstfilter.bloom:10:banded:optimize_levels:cache_aware",
                                           &table.filter_policy)
                    .ok());
    table.metadata_block_size = 256;
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    options.info_log = log_;
    // The first instance only learns (its loop's pace 0): until the tables'
    // sampled reads number some hundreds, the plan moves with them (at
    // ASan's pace, tables rewritten while they were young were rewritten
    // again by the next instance).
    options.listeners = {std::make_shared<LevelCensusListener>(
        LevelCensusListener::kWorkPerRebuild, kAnsweredTestWindow, /*rebuild_bytes_per_second=*/0)};
    ASSERT_TRUE(OpenDb(options, "/db", &db_).ok());
    WriteAndFlush(db_.get(), keys_, 0, kKeys);
    std::string value;
    for (size_t i = 0; i < kLearningGets; ++i) {
      ASSERT_TRUE(db_->Get(rocksdb::ReadOptions(), absent_[i * 7 % kKeys], &value).IsNotFound());
    }
    db_.reset();
    options.listeners = {listener_};
    options_ = options;
    ASSERT_TRUE(OpenDb(options_, "/db", &db_).ok());
    ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "a-new-key", "v").ok());
    ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());  // The event that starts the loop.
  }
  // About 600 of RocksDB's sampled reads.
  static constexpr size_t kLearningGets = 600000;
};

TEST_F(RebuildPartitionedDbTest, AbsentGetsSettleAndTheNextInstanceRewritesNothing) {
  const LevelCensusListener::Rebuilt settled =
      GetUntilRebuilt(std::chrono::seconds(3), std::chrono::seconds(90), 0, "/db", true);
  ASSERT_GT(settled.tables, 0u) << "absent Gets moved no table off the plan";
  db_.reset();
  auto next = std::make_shared<LevelCensusListener>(LevelCensusListener::kWorkPerRebuild,
                                                    kAnsweredTestWindow, 1e9);
  options_.listeners = {next};
  ASSERT_TRUE(OpenDb(options_, "/db", &db_).ok());
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "a-new-key", "v").ok());
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());  // The event that gives the loop the DB.
  const LevelCensusListener::Rebuilt again = GetUntilRebuilt(
      std::chrono::seconds(10), std::chrono::seconds(10), 0, "/db", true, next.get());
  EXPECT_EQ(again.tables, 0u)
      << "the next instance rewrote tables the last one rewrote to the plan";
  testing::ExpectAllFound(db_.get(), keys_, "after the rewrites", LongValueFor);
}

}  // namespace
}  // namespace sstfilter
