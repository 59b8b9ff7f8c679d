// The rebuild loop where no block cache is modelled (optimize_levels with a
// byte budget, filter/plan/fp_rebuilds.h): a DB whose filters hold more
// than its policy's budget allows (the budget lowered across a reopen) is
// brought within it by rewriting its tables in place, every key still
// found, and a tree brought to the plan is left alone.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "filter/plan/fp_rebuilds.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "table/census/census_listener.h"
#include "table/census/filter_answers.h"
#include "table/census/open_db.h"
#include "table/rocksdb/registration.h"
#include "tests/db_test_util.h"
#include "tests/warning_log.h"

namespace sstfilter {
namespace {

constexpr size_t kBudgetTestKeys = 50000;
constexpr double kLoadBudgetMib = 0.1;
constexpr double kLoweredBudgetMib = 0.05;

// Values of 400 bytes: a filter's bits are a small part of a table's, so
// that rewriting them barely moves RocksDB's level targets.
std::string ValueOf(const std::string& key) {
  std::string value = testing::ValueFor(key);
  value.resize(400, static_cast<char>('a' + static_cast<unsigned char>(key[1]) % 26));
  return value;
}

class RebuildBudgetDbTest : public ::testing::Test {
 protected:
  // Opens the DB (closed) with a budget of `budget_mib` and a listener of
  // its own, the loop paced at 1 GB/s.
  void Open(double budget_mib, bool compactions_off = false) {
    EnsureRocksDbFilterPoliciesRegistered();
    rocksdb::Options options;
    options.create_if_missing = true;
    options.env = env_.get();
    options.statistics = rocksdb::CreateDBStatistics();  // The Get rate.
    options.info_log = log_;
    testing::UseSmallLeveledTree(&options);
    options.disable_auto_compactions = compactions_off;
    rocksdb::BlockBasedTableOptions table;
    ASSERT_TRUE(
        CreateFilterPolicyStrictly("sstfilter.bloom:20:cache_local:optimize_levels:budget_mb:" +
                                       std::to_string(budget_mib),
                                   &table.filter_policy)
            .ok());
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    listener_ = std::make_shared<LevelCensusListener>(LevelCensusListener::kWorkPerRebuild,
                                                      FilterAnswers::kAnsweredWindowGets,
                                                      /*rebuild_bytes_per_second=*/1e9);
    options.listeners = {listener_};
    ASSERT_TRUE(OpenDb(options, "/db", &db_).ok());
  }

  // The keys under kLoadBudgetMib, their flushes and compactions done.
  void Load() {
    Open(kLoadBudgetMib);
    for (size_t i = 0; i < kBudgetTestKeys; ++i) {
      ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), keys_[i], ValueOf(keys_[i])).ok());
    }
    ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
    testing::WaitForBackgroundWork(db_.get());
  }

  // Absent Gets until the loop has rewritten nothing new for `quiet`, or
  // `limit` passes; the tables rewritten by then.
  uint64_t GetUntilQuiet(std::chrono::seconds quiet, std::chrono::seconds limit) {
    const auto start = std::chrono::steady_clock::now();
    auto changed = start;
    uint64_t last = listener_->RebuiltSoFar("/db").tables;
    std::string value;
    for (size_t round = 0; std::chrono::steady_clock::now() - start < limit; ++round) {
      for (size_t i = 0; i < 2000; ++i) {
        EXPECT_TRUE(
            db_->Get(rocksdb::ReadOptions(), absent_[(round * 2000 + i) % kBudgetTestKeys], &value)
                .IsNotFound());
      }
      const uint64_t now = listener_->RebuiltSoFar("/db").tables;
      if (now != last) changed = std::chrono::steady_clock::now(), last = now;
      if (std::chrono::steady_clock::now() - changed > quiet) break;
    }
    return last;
  }

  // The loop's lines, for a failure's message.
  std::string Rewrites() const {
    std::string text;
    for (const std::string& line : log_->Lines()) {
      if (line.find("sstfilter: rebuil") != std::string::npos) text += line + "\n";
    }
    return text;
  }

  const std::shared_ptr<testing::WarningLog> log_ =
      std::make_shared<testing::WarningLog>(rocksdb::InfoLogLevel::INFO_LEVEL);
  const std::unique_ptr<rocksdb::Env> env_{rocksdb::NewMemEnv(rocksdb::Env::Default())};
  const std::vector<std::string> keys_ = testing::RandomKeys(kBudgetTestKeys, 71);
  const std::vector<std::string> absent_ = testing::AbsentKeys(kBudgetTestKeys, 72);
  std::shared_ptr<LevelCensusListener> listener_;
  std::unique_ptr<rocksdb::DB> db_;
};

TEST_F(RebuildBudgetDbTest, AFilterBudgetLoweredAcrossAReopenIsMetByRewritingTables) {
  Load();
  const uint64_t loaded = testing::LiveFilterBytes(db_.get());
  const double lowered = kLoweredBudgetMib * 1024 * 1024;
  ASSERT_GT(static_cast<double>(loaded), 1.5 * lowered) << "the load's filters fit the new budget";

  db_.reset();
  Open(kLoweredBudgetMib);
  // An event gives the census the DB (its loop starts): a flush of one key.
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "a-new-key", "v").ok());
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  EXPECT_GT(GetUntilQuiet(std::chrono::seconds(3), std::chrono::seconds(90)), 0u);
  // Smaller tables can move RocksDB's level targets: its compactions, then
  // the loop's answer to the tree they leave.
  testing::WaitForBackgroundWork(db_.get());
  const uint64_t rewritten = GetUntilQuiet(std::chrono::seconds(3), std::chrono::seconds(30));
  const uint64_t now = testing::LiveFilterBytes(db_.get());
  EXPECT_LE(static_cast<double>(now), (1 + kBudgetSlack) * lowered)
      << "loaded " << loaded << " bytes of filters, " << rewritten << " tables rewritten\n"
      << Rewrites();
  testing::ExpectAllFound(db_.get(), keys_, "after the rewrites", &ValueOf);

  // Brought to the plan, the tree is left alone.
  const std::string before = Rewrites();
  EXPECT_EQ(GetUntilQuiet(std::chrono::seconds(6), std::chrono::seconds(6)), rewritten)
      << Rewrites().substr(before.size());
}

// With automatic compactions off (a DB read while they are), a compaction
// RocksDB has pending never runs: the loop does not wait for it.
TEST_F(RebuildBudgetDbTest, APendingCompactionThatNeverRunsDoesNotHoldTheLoop) {
  Load();
  db_.reset();
  Open(kLoweredBudgetMib, /*compactions_off=*/true);
  for (int table = 0; table < 5; ++table) {  // L0 past its trigger of 4: a compaction pending.
    ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "new-key-" + std::to_string(table), "v").ok());
    ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  }
  uint64_t pending = 0;
  ASSERT_TRUE(db_->GetIntProperty(rocksdb::DB::Properties::kCompactionPending, &pending));
  ASSERT_EQ(pending, 1u);
  EXPECT_GT(GetUntilQuiet(std::chrono::seconds(3), std::chrono::seconds(90)), 0u) << Rewrites();
  testing::ExpectAllFound(db_.get(), keys_, "after the rewrites", &ValueOf);
}

}  // namespace
}  // namespace sstfilter
