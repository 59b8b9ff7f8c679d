// Where the census learns the share of Gets that find their key without a
// DB's statistics (DBOptions::statistics unset, as most DBs run): from the
// filters' own sampled answers (table/census/filter_answers.h), and kept
// in the traffic file by a DB whose Gets follow its last flush or that only
// reads (table/census/census_listener.h).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/version.h"
#include "table/census/census_listener.h"
#include "table/census/census_registry.h"
#include "table/census/filter_answers.h"
#include "table/census/open_db.h"
#include "tests/cache_aware_db_util.h"
#include "tests/db_test_util.h"
#include "tests/warning_log.h"

namespace sstfilter {
namespace {

using cache_aware_testing::AnsweredOptions;
using cache_aware_testing::CacheSetup;
using cache_aware_testing::kAnsweredTestWindow;
using cache_aware_testing::kCacheAware;
using cache_aware_testing::kKeys;
using cache_aware_testing::LongValueFor;
using cache_aware_testing::OptionsFor;
using cache_aware_testing::PlanAfterGets;
using cache_aware_testing::WriteAndFlush;

// A window of kAnsweredTestWindow Gets, and a fifth more.
constexpr size_t kWindow = kAnsweredTestWindow * 6 / 5;

std::shared_ptr<rocksdb::EventListener> NewListener() {
  return std::make_shared<LevelCensusListener>(LevelCensusListener::kWorkPerRebuild,
                                               kAnsweredTestWindow, /*no rebuilds*/ 0.0);
}

// A cache_aware DB in memory, without statistics, its keys written but the
// last 100.
class LearnedShareDbTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_ = AnsweredOptions(env_.get(), NewListener());
    ASSERT_TRUE(OpenDb(options_, "/db", &db_).ok());
    WriteAndFlush(db_.get(), keys_, 0, kKeys - 100);
  }
  void TearDown() override { FilterAnswers::SetSampleEvery(FilterAnswers::kSampleEvery); }

  // Closes the DB; opens it again with a new census listener (`keep`: the
  // last one is held, else it goes).
  void Reopen(std::shared_ptr<rocksdb::EventListener>* keep = nullptr) {
    db_.reset();
    if (keep != nullptr) *keep = options_.listeners[0];
    options_.listeners = {NewListener()};
    ASSERT_TRUE(OpenDb(options_, "/db", &db_).ok());
  }

  void GetAbsentKeys(size_t n) {
    std::string value;
    for (const std::string& key : testing::AbsentKeys(n, 5)) {
      ASSERT_TRUE(db_->Get(rocksdb::ReadOptions(), key, &value).IsNotFound());
    }
  }

  const std::unique_ptr<rocksdb::Env> env_{rocksdb::NewMemEnv(rocksdb::Env::Default())};
  const std::vector<std::string> keys_ = testing::RandomKeys(kKeys, 61);
  rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
};

// The share over a window of absent keys: under 5% (0 to 3% seen); over one
// of present keys: over 90% (95 to 100% seen); each plan as with the
// statistics' share (cache_aware_db_test's TheDbsStatisticsSay...). Before
// any Get, the plan is for the assumed share. Every key is found at the end.
TEST_F(LearnedShareDbTest, TheFiltersAnswersSayHowManyGetsFindTheirKey) {
  const std::shared_ptr<CachePlanMemo> plans =
      LevelCensus::Instance().PlansOf(CensusKeyOf(db_.get()), "default");
  ASSERT_TRUE(plans != nullptr && plans->Last().has_value());
  EXPECT_EQ(plans->Last()->hit_share_from, HitShareFrom::kAssumed);

  const CachePlan absent =
      PlanAfterGets(db_.get(), testing::AbsentKeys(kWindow, 5), keys_, kKeys - 100, kKeys - 50);
  EXPECT_EQ(absent.hit_share_from, HitShareFrom::kObserved);
  EXPECT_LT(absent.hit_share, 0.05);
  EXPECT_EQ(absent.unfiltered_from, CachePlan::kAllFiltered);
  const auto runs = LevelCensus::Instance().Find(CensusKeyOf(db_.get()), "default");
  ASSERT_TRUE(runs != nullptr);
  EXPECT_FALSE(runs->observed_misses.has_value()) << "no statistics count the cache's misses";

  // Keys of every age, as readrandom's: the found keys the filters do not
  // see (where a level is left unfiltered) are inferred from those they do
  // by the levels' entries (gets_from_answers.h).
  std::vector<std::string> present;
  for (size_t i = 0; i < kWindow; ++i) present.push_back(keys_[i * 7 % (kKeys - 100)]);
  const CachePlan found = PlanAfterGets(db_.get(), present, keys_, kKeys - 50, kKeys);
  std::printf("share from the answers: %.4f of absent Gets, %.4f of present Gets\n",
              absent.hit_share, found.hit_share);
  EXPECT_EQ(found.hit_share_from, HitShareFrom::kObserved);
  EXPECT_GT(found.hit_share, 0.9);
  EXPECT_NE(found.unfiltered_from, CachePlan::kAllFiltered)
      << "every Get found its key, yet the deepest level keeps its filters";
  testing::ExpectAllFound(db_.get(), keys_, "after the Gets", LongValueFor);
}

// A process that loads, then reads, then closes (db_bench
// fillrandom,readmissing): no flush or compaction follows the Gets, so what
// they told is written into the traffic file as the DB's listener goes with
// it, and the next instance plans for it.
TEST_F(LearnedShareDbTest, GetsAfterTheLastFlushAreKeptAcrossAClose) {
  GetAbsentKeys(kWindow);
  Reopen();
  const CachePlan reopened = PlanAfterGets(db_.get(), {}, keys_, kKeys - 100, kKeys);
  std::printf("carried share %.4f\n", reopened.hit_share);
  EXPECT_EQ(reopened.hit_share_from, HitShareFrom::kCarried);
  EXPECT_LT(reopened.hit_share, 0.05);
  testing::ExpectAllFound(db_.get(), keys_, "after a reopen", LongValueFor);
}

// An instance of a DB that only reads (opened, read, closed: no flush, no
// compaction, no event of the census's before the close) keeps what its
// Gets told too, its listener held past the close: RocksDB 11.4 and later
// tell the census the DB is closing (EventListener::OnDBShutdownBegin),
// where it reads the DB's tree and writes the traffic file. Before 11.4 no
// event names such a DB to its census.
TEST_F(LearnedShareDbTest, ADbThatOnlyReadsKeepsWhatItLearned) {
  if (!SSTFILTER_ROCKSDB_HAS_SHUTDOWN_BEGIN) {
    GTEST_SKIP() << "RocksDB " << ROCKSDB_MAJOR << "." << ROCKSDB_MINOR
                 << " tells a listener nothing of a DB that only reads (OnDBShutdownBegin: 11.4+)";
  }
  Reopen();
  GetAbsentKeys(kWindow);
  std::shared_ptr<rocksdb::EventListener> reader;
  Reopen(&reader);
  const CachePlan reopened = PlanAfterGets(db_.get(), {}, keys_, kKeys - 100, kKeys);
  EXPECT_EQ(reopened.hit_share_from, HitShareFrom::kCarried);
  EXPECT_LT(reopened.hit_share, 0.05);
  testing::ExpectAllFound(db_.get(), keys_, "after a reopen", LongValueFor);
}

// RocksDB 11.4 and later tell the census of a DB whose open failed too, as
// they clean it up (no column family yet): the open fails with its own
// error, and nothing else happens.
TEST(LearnedShareCloseTest, AFailedOpenIsOnlyAnError) {
  EnsureRocksDbFilterPoliciesRegistered();
  const std::unique_ptr<rocksdb::Env> env(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  rocksdb::Options options =
      OptionsFor(kCacheAware, CacheSetup{64 << 10}, std::make_shared<testing::WarningLog>());
  options.env = env.get();
  options.create_if_missing = false;
  std::unique_ptr<rocksdb::DB> db;
  const rocksdb::Status s = OpenDb(options, "/no-such-db", &db);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(db, nullptr);
}

}  // namespace
}  // namespace sstfilter
