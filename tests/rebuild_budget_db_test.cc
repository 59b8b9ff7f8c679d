// The rebuild loop where no block cache is modelled (optimize_levels with a
// byte budget, filter/plan/fp_rebuilds.h): a DB whose filters hold more
// than its policy's budget allows (the budget lowered across a reopen) is
// brought within it by rewriting its tables in place, every key still
// found, and a tree brought to the plan is left alone.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "filter/plan/fp_rebuilds.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "table/census/census_listener.h"
#include "table/census/filter_answers.h"
#include "table/census/open_db.h"
#include "table/rocksdb/registration.h"
#include "tests/db_test_util.h"
#include "tests/rebuild_log_util.h"
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

using testing::RewriteOutputs;

// The loop's rewrites whose table came out more than `bits` a key from
// the plan it was weighed against, as the LOG's lines say (each figure to
// a tenth).
std::string RewritesOffTheirPlan(const std::vector<std::string>& lines, double bits) {
  const std::regex plan(R"(([0-9.]+) bits/key by today's plan)");
  const std::regex output(R"(#[0-9]+ with ([0-9.]+) bits/key)");
  std::string off;
  for (const std::string& line : lines) {
    std::smatch m;
    if (!std::regex_search(line, m, plan)) continue;
    const double planned = std::stod(m[1].str());
    for (auto it = std::sregex_iterator(line.begin(), line.end(), output);
         it != std::sregex_iterator(); ++it) {
      if (std::abs(std::stod((*it)[1].str()) - planned) > bits) {
        off += line + "\n";
        break;
      }
    }
  }
  return off;
}

// How long a wait for the loop's first rewrites lasts without one: longer
// than the census's 5-s traffic refresh, since on a loaded machine (ASan,
// ctest -j2) the loop's first reckoning can come after 3 s of Gets, and a
// 3-s quiet then ended the wait before any rewrite.
constexpr std::chrono::seconds kFirstRewriteQuiet(8);

class RebuildBudgetDbTest : public ::testing::Test {
 protected:
  // Opens the DB (closed) with a budget of `budget_mib` and a listener of
  // its own, the loop paced at 1 GB/s.
  void Open(double budget_mib, bool compactions_off = false) {
    OpenWith(
        "sstfilter.bloom:20:cache_local:optimize_levels:budget_mb:" + std::to_string(budget_mib),
        compactions_off);
  }

  // The same, under `policy`.
  void OpenWith(const std::string& policy, bool compactions_off = false) {
    EnsureRocksDbFilterPoliciesRegistered();
    rocksdb::Options options;
    options.create_if_missing = true;
    options.env = env_.get();
    options.statistics = rocksdb::CreateDBStatistics();  // The Get rate.
    options.info_log = log_;
    testing::UseSmallLeveledTree(&options);
    options.disable_auto_compactions = compactions_off;
    if (adjust_) adjust_(&options);
    rocksdb::BlockBasedTableOptions table;
    ASSERT_TRUE(CreateFilterPolicyStrictly(policy, &table.filter_policy).ok());
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    listener_ = std::make_shared<LevelCensusListener>(LevelCensusListener::kWorkPerRebuild,
                                                      FilterAnswers::kAnsweredWindowGets,
                                                      /*rebuild_bytes_per_second=*/1e9);
    options.listeners = {listener_};
    ASSERT_TRUE(OpenDb(options, path_, &db_).ok());
  }

  // The keys under kLoadBudgetMib (or `policy`), their flushes and
  // compactions done.
  void Load(const std::string& policy = "") {
    if (policy.empty()) {
      Open(kLoadBudgetMib);
    } else {
      OpenWith(policy);
    }
    for (size_t i = 0; i < kBudgetTestKeys; ++i) {
      ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), keys_[i], ValueOf(keys_[i])).ok());
    }
    ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
    testing::WaitForBackgroundWork(db_.get());
  }

  // Round `round` of 2,000 Gets of `absent` (each found absent), taking
  // the keys in turn.
  void GetRound(const std::vector<std::string>& absent, size_t round) {
    std::string value;
    for (size_t i = 0; i < 2000; ++i) {
      EXPECT_TRUE(
          db_->Get(rocksdb::ReadOptions(), absent[(round * 2000 + i) % absent.size()], &value)
              .IsNotFound());
    }
  }

  // Absent Gets (of `absent`, absent_ if empty) until the loop has
  // rewritten nothing new for `quiet` (went_quiet_), or `limit` passes;
  // the tables rewritten by then.
  uint64_t GetUntilQuiet(std::chrono::seconds quiet, std::chrono::seconds limit,
                         std::vector<std::string> absent = {}) {
    if (absent.empty()) absent = absent_;
    const auto start = std::chrono::steady_clock::now();
    auto changed = start;
    uint64_t last = listener_->RebuiltSoFar(path_).tables;
    for (size_t round = 0; std::chrono::steady_clock::now() - start < limit; ++round) {
      GetRound(absent, round);
      const uint64_t now = listener_->RebuiltSoFar(path_).tables;
      if (now != last) changed = std::chrono::steady_clock::now(), last = now;
      if (std::chrono::steady_clock::now() - changed > quiet) {
        went_quiet_ = true;
        return last;
      }
    }
    went_quiet_ = false;
    return last;
  }

  // Absent Gets (of `absent`) until the loop has rewritten `tables` tables
  // since the call, or `limit` passes; the tables rewritten by then.
  uint64_t GetUntilRewritten(uint64_t tables, std::chrono::seconds limit,
                             const std::vector<std::string>& absent) {
    const auto start = std::chrono::steady_clock::now();
    const uint64_t first = listener_->RebuiltSoFar(path_).tables;
    for (size_t round = 0; std::chrono::steady_clock::now() - start < limit; ++round) {
      GetRound(absent, round);
      if (listener_->RebuiltSoFar(path_).tables - first >= tables) break;
    }
    return listener_->RebuiltSoFar(path_).tables - first;
  }

  // Closes the DB, `reopen`s it and writes `key` (a flush: the event that
  // gives the census the DB), then Gets until the loop is quiet for
  // `quiet`: none of the tables numbered in `rewritten` is rewritten again.
  void ExpectNotRewrittenAgain(const std::set<std::string>& rewritten,
                               const std::function<void()>& reopen, const std::string& key,
                               std::chrono::seconds quiet) {
    db_.reset();
    const size_t before = Rewrites().size();
    reopen();
    ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), key, "v").ok());
    ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
    GetUntilQuiet(quiet, std::chrono::seconds(60));
    const std::string again = Rewrites().substr(before);
    for (const std::string& number : rewritten) {
      EXPECT_EQ(again.find("rebuilt table #" + number + " "), std::string::npos)
          << "#" << number << " rewritten before the reopen, again after it:\n"
          << again;
    }
  }

  // The loop's lines, for a failure's message.
  std::string Rewrites() const { return testing::LoopLines(log_->Lines()); }

  const std::shared_ptr<testing::WarningLog> log_ =
      std::make_shared<testing::WarningLog>(rocksdb::InfoLogLevel::INFO_LEVEL);
  const std::unique_ptr<rocksdb::Env> env_{rocksdb::NewMemEnv(rocksdb::Env::Default())};
  const std::vector<std::string> keys_ = testing::RandomKeys(kBudgetTestKeys, 71);
  const std::vector<std::string> absent_ = testing::AbsentKeys(kBudgetTestKeys, 72);
  std::shared_ptr<LevelCensusListener> listener_;
  std::unique_ptr<rocksdb::DB> db_;
  const std::string path_ = "/db";
  bool went_quiet_ = false;  // Whether the last GetUntilQuiet saw its quiet.
  std::function<void(rocksdb::Options*)> adjust_;  // Options of a test's own, at each open.
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
  EXPECT_GT(GetUntilQuiet(kFirstRewriteQuiet, std::chrono::seconds(90)), 0u);
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
  EXPECT_GT(GetUntilQuiet(kFirstRewriteQuiet, std::chrono::seconds(90)), 0u) << Rewrites();
  testing::ExpectAllFound(db_.get(), keys_, "after the rewrites", &ValueOf);
}

// Universal compaction reports a compaction due whenever its sorted runs
// reach the trigger (RocksDB's default, 4), also when its picker then
// declines every run: a compacted base and three flushes, each a quarter
// of the one before and all far smaller than the base, leave one due that
// never starts. The loop does not wait for it.
TEST_F(RebuildBudgetDbTest, AUniversalCompactionDueButDeclinedDoesNotHoldTheLoop) {
  adjust_ = [](rocksdb::Options* options) {
    options->compaction_style = rocksdb::kCompactionStyleUniversal;
  };
  Load();
  ASSERT_TRUE(db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
  db_.reset();
  Open(kLoweredBudgetMib);
  size_t next = 0;
  for (size_t keys : {240, 60, 15}) {  // Each within one 128 KiB memtable.
    for (size_t i = 0; i < keys; ++i, ++next) {
      ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), absent_[next], ValueOf(absent_[next])).ok());
    }
    ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  }
  testing::WaitForBackgroundWork(db_.get());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  uint64_t pending = 0, running = 0;
  ASSERT_TRUE(db_->GetIntProperty(rocksdb::DB::Properties::kCompactionPending, &pending));
  ASSERT_TRUE(db_->GetIntProperty(rocksdb::DB::Properties::kNumRunningCompactions, &running));
  ASSERT_EQ(pending, 1u) << "no compaction due: the case no longer holds one declined";
  ASSERT_EQ(running, 0u);
  // Gets of keys absent from the DB: those past the ones just written.
  // Each rewrite restarts the wait that tells a declined compaction: the
  // loop goes on past it, not only to its first rewrite.
  const std::vector<std::string> absent(absent_.begin() + next, absent_.end());
  EXPECT_GE(GetUntilRewritten(3, std::chrono::seconds(90), absent), 3u) << Rewrites();
  testing::ExpectAllFound(db_.get(), keys_, "after the rewrites", &ValueOf);
}

// RocksDB writes a bottommost table without a filter under
// optimize_filters_for_hits whatever the policy gives it: the loop plans
// such tables without one and rewrites none that has none (a rewrite
// would write the same table again, as it did at every open); the levels
// above are rewritten toward the lowered budget, which is theirs alone
// (what L0's tables hold over their share stays while compactions run:
// 0.95-1.09x the budget over six runs).
TEST_F(RebuildBudgetDbTest, TablesRocksDbWritesWithoutAFilterAreNotRewritten) {
  adjust_ = [](rocksdb::Options* options) { options->optimize_filters_for_hits = true; };
  Load();
  int deepest = 0;
  std::vector<rocksdb::LiveFileMetaData> files;
  db_->GetLiveFilesMetaData(&files);
  for (const rocksdb::LiveFileMetaData& f : files) deepest = std::max(deepest, f.level);
  ASSERT_GT(deepest, 1);
  // Every filter byte is above the deepest level: half of them is the
  // lowered budget.
  const double lowered_mib =
      static_cast<double>(testing::LiveFilterBytes(db_.get())) / 2 / (1024 * 1024);
  ASSERT_GE(lowered_mib, 0.001) << "budget_mb's least";

  db_.reset();
  Open(lowered_mib);
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "a-new-key", "v").ok());
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  EXPECT_GT(GetUntilQuiet(kFirstRewriteQuiet, std::chrono::seconds(60)), 0u)
      << "the upper levels are brought to the lowered budget";
  EXPECT_TRUE(went_quiet_) << Rewrites();
  // RocksDB's compactions after the rewrites' smaller tables, then the
  // loop's answer to the tree they leave.
  testing::WaitForBackgroundWork(db_.get());
  GetUntilQuiet(std::chrono::seconds(3), std::chrono::seconds(30));
  EXPECT_EQ(Rewrites().find("no filter as built"), std::string::npos)
      << "a table without a filter rewritten (to none again):\n"
      << Rewrites();
  testing::ExpectAllFound(db_.get(), keys_, "after the rewrites", &ValueOf);
}

// With a prefix extractor the filters hold each key's prefix beside it
// (RocksDB's whole_key_filtering), each sized for both: the census counts a
// table's filter entries, so the budget holds and a table the loop rewrote
// is on the plan at the next open too (counted per key, every such table
// looked 2x its plan's bits, and each open rewrote it to the same bits).
TEST_F(RebuildBudgetDbTest, TablesRewrittenWithPrefixesInTheirFiltersStayOnThePlan) {
  adjust_ = [](rocksdb::Options* options) {
    options->prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(8));  // Of 16-byte keys.
  };
  const std::string policy = "sstfilter.bloom:20:cache_local:optimize_levels:budget_mb:";
  Load(policy + std::to_string(kLoadBudgetMib));
  db_.reset();
  OpenWith(policy + std::to_string(kLoweredBudgetMib));
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "a-new-key", "v").ok());
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  GetUntilQuiet(std::chrono::seconds(3), std::chrono::seconds(60));
  ASSERT_TRUE(went_quiet_) << Rewrites();
  const std::set<std::string> rewritten = RewriteOutputs(log_->Lines());
  ASSERT_GE(rewritten.size(), 10u) << "the lowered budget rewrites tables\n" << Rewrites();
  // The census counts the filters' entries, as the builders size them: the
  // budget holds (counted by keys, the filters came to 2x it).
  EXPECT_LE(static_cast<double>(testing::LiveFilterBytes(db_.get())),
            (1 + kBudgetSlack) * kLoweredBudgetMib * 1024 * 1024);

  ExpectNotRewrittenAgain(
      rewritten, [&] { OpenWith(policy + std::to_string(kLoweredBudgetMib)); }, "another-new-key",
      std::chrono::seconds(6));
  testing::ExpectAllFound(db_.get(), keys_, "after the reopen", &ValueOf);
}

// A burst written with compactions off (L0's tables stay, each a run of
// its own) under a budget: the tables the loop rewrites are built to the
// plan they were weighed against, so the next instance rewrites none of
// them again (each level planned on the free tree and built on the
// census's, tables above the deepest level came out 0.3-1.6 bits a key off
// their plan and were rewritten at every open).
TEST_F(RebuildBudgetDbTest, AfterABurstWithCompactionsOffNoRewriteIsRewrittenAgain) {
  Load();
  db_.reset();
  Open(kLoadBudgetMib, /*compactions_off=*/true);
  for (size_t flush = 0; flush < 16; ++flush) {  // Overwrites: L0 over every level's range.
    for (size_t i = flush; i < kBudgetTestKeys; i += 32) {
      ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), keys_[i], ValueOf(keys_[i])).ok());
    }
    ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  }
  const uint64_t burst = testing::LiveFilterBytes(db_.get());
  GetUntilQuiet(std::chrono::seconds(3), std::chrono::seconds(60));
  ASSERT_TRUE(went_quiet_) << Rewrites();
  ASSERT_GE(RewriteOutputs(log_->Lines()).size(), 5u) << "the burst moves the plan\n" << Rewrites();
  // L0's tables stay (nothing compacts them) and are never rewritten: the
  // levels repay what they hold over their share.
  EXPECT_LE(static_cast<double>(testing::LiveFilterBytes(db_.get())),
            (1 + kBudgetSlack) * kLoadBudgetMib * 1024 * 1024)
      << "the burst left " << burst << " bytes of filters\n"
      << Rewrites();
  for (int reopen = 1; reopen <= 2; ++reopen) {
    ExpectNotRewrittenAgain(
        RewriteOutputs(log_->Lines()), [&] { Open(kLoadBudgetMib, /*compactions_off=*/true); },
        "a-new-key", std::chrono::seconds(5));
  }
  // Each landed on its plan (the loop's own test: within 0.25 bits a key
  // and what a count of 256 bits cannot know, read here to a tenth).
  EXPECT_EQ(RewritesOffTheirPlan(log_->Lines(), 0.35), "");
  testing::ExpectAllFound(db_.get(), keys_, "after the burst and the rewrites", &ValueOf);
}

// A live table's level, keys and filter bits per entry.
struct LiveTable {
  int level = 0;
  std::string smallest, largest;
  double bits_per_key = 0;
};

std::vector<LiveTable> LiveTables(rocksdb::DB* db) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  rocksdb::TablePropertiesCollection properties;
  EXPECT_TRUE(db->GetPropertiesOfAllTables(&properties).ok());
  std::vector<LiveTable> tables;
  for (const rocksdb::LiveFileMetaData& f : files) {
    for (const auto& [path, table] : properties) {
      if (path.size() < f.name.size() ||
          path.compare(path.size() - f.name.size(), f.name.size(), f.name) != 0) {
        continue;
      }
      tables.push_back({f.level, f.smallestkey, f.largestkey,
                        8.0 * static_cast<double>(table->filter_size) /
                            static_cast<double>(std::max<uint64_t>(table->num_entries, 1))});
    }
  }
  return tables;
}

// The file numbers of the DB's L0 tables.
std::set<uint64_t> L0Numbers(rocksdb::DB* db) {
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  std::set<uint64_t> numbers;
  for (const rocksdb::LiveFileMetaData& f : files) {
    if (f.level == 0) numbers.insert(f.file_number);
  }
  return numbers;
}

// The median bits per key of the deepest level's tables outside [lo, hi].
double MedianBitsOutside(const std::vector<LiveTable>& tables, int level, const std::string& lo,
                         const std::string& hi) {
  std::vector<double> bits;
  for (const LiveTable& t : tables) {
    if (t.level == level && (t.largest < lo || hi < t.smallest)) bits.push_back(t.bits_per_key);
  }
  std::sort(bits.begin(), bits.end());
  return bits.empty() ? 0 : bits[bits.size() / 2];
}

// Access-aware allocation without a cache: a loaded DB's tables were
// built before any Get (each level at one setting). Nine Gets in ten then
// go to one bottom table's key range: the loop rewrites that table with
// more bits a key than the level's others, within the policy's byte
// budget, every key still found.
TEST_F(RebuildBudgetDbTest, AHotRangesTableBuiltColdIsRewrittenWithMoreBits) {
  Load("sstfilter.bloom:20:cache_local:optimize_levels:access_aware:budget_mb:" +
       std::to_string(kLoweredBudgetMib));
  const std::vector<LiveTable> before = LiveTables(db_.get());
  int deepest = 0;
  for (const LiveTable& t : before) deepest = std::max(deepest, t.level);
  std::vector<LiveTable> bottom;
  for (const LiveTable& t : before) {
    if (t.level == deepest) bottom.push_back(t);
  }
  ASSERT_GE(bottom.size(), 8u);
  std::sort(bottom.begin(), bottom.end(),
            [](const LiveTable& a, const LiveTable& b) { return a.smallest < b.smallest; });
  // The middlemost table built at the level's median bits (the load built
  // some at other settings as the tree grew) and holding 100 keys or more
  // (a compaction's last output can be a few dozen).
  const double median = MedianBitsOutside(before, deepest, "", "");
  LiveTable hot;
  std::vector<std::string> in_range;  // Absent keys inside it: each a present key's successor.
  for (size_t step = 0; step < 2 * bottom.size() && hot.level == 0; ++step) {
    const size_t i = bottom.size() / 2 + step / 2 * (step % 2 == 0 ? 1 : -1);
    if (i >= bottom.size() || std::abs(bottom[i].bits_per_key - median) >= 0.5) continue;
    in_range.clear();
    for (const std::string& key : keys_) {
      if (bottom[i].smallest <= key && key < bottom[i].largest) in_range.push_back(key + "h");
    }
    if (in_range.size() >= 100) hot = bottom[i];
  }
  ASSERT_EQ(hot.level, deepest) << "no table of 100 keys at the level's median bits";
  std::vector<std::string> gets;
  for (size_t i = 0; i < kBudgetTestKeys; ++i) {
    gets.push_back(i % 10 == 9 ? absent_[i] : in_range[i % in_range.size()]);
  }
  // Quiet for longer than the census's refresh of the tables' sampled reads
  // (kTrafficRefresh, 5 s) where only Gets move them.
  EXPECT_GT(GetUntilQuiet(std::chrono::seconds(7), std::chrono::seconds(90), gets), 0u);
  EXPECT_TRUE(went_quiet_) << "the loop still rewrote after 90 s\n" << Rewrites();

  const std::vector<LiveTable> after = LiveTables(db_.get());
  const double others = MedianBitsOutside(after, deepest, hot.smallest, hot.largest);
  size_t covering = 0;
  for (const LiveTable& t : after) {
    if (t.level != deepest || t.largest < hot.smallest || hot.largest < t.smallest) continue;
    ++covering;
    EXPECT_GE(t.bits_per_key, others + 2) << "the hot range's table\n" << Rewrites();
  }
  EXPECT_GE(covering, 1u);
  EXPECT_LE(static_cast<double>(testing::LiveFilterBytes(db_.get())),
            (1 + kBudgetSlack) * kLoweredBudgetMib * 1024 * 1024)
      << Rewrites();
  testing::ExpectAllFound(db_.get(), keys_, "after the rewrites", &ValueOf);
}

// Access-aware with compactions running, a tree read and not written
// keeps its L0 tables: one built under another setting (6 bits a key, the
// levels below at 13, the DB reopened at 14) is rewritten in place at L0,
// RocksDB's CompactFiles of the one table into L0, every key still found.
// The levels a bit under their plan leave its add room in the plan's
// bits, and their tables' false positives few beside its own.
TEST_F(RebuildBudgetDbTest, AnL0TableOffThePlanIsRewrittenInPlaceAtL0) {
  Load("sstfilter.bloom:13:cache_local:optimize_levels");
  ASSERT_TRUE(db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
  db_.reset();
  OpenWith("sstfilter.bloom:6:cache_local:optimize_levels");
  // One L0 table over the whole key range: every 200th key written again
  // (under a memtable).
  for (size_t i = 0; i < kBudgetTestKeys; i += 200) {
    ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), keys_[i], ValueOf(keys_[i])).ok());
  }
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  testing::WaitForBackgroundWork(db_.get());
  const std::set<uint64_t> l0_before = L0Numbers(db_.get());
  ASSERT_EQ(l0_before.size(), 1u);

  db_.reset();
  OpenWith("sstfilter.bloom:14:cache_local:optimize_levels:access_aware");
  // An event gives the census the DB (its loop starts): a flush of one key.
  ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), "a-new-key", "v").ok());
  ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  EXPECT_GT(GetUntilQuiet(kFirstRewriteQuiet, std::chrono::seconds(90)), 0u);
  const uint64_t l0 = *l0_before.begin();
  EXPECT_NE(Rewrites().find(absl::StrFormat("rebuilt table #%d at L0", l0)), std::string::npos)
      << Rewrites();
  const std::set<uint64_t> l0_after = L0Numbers(db_.get());
  EXPECT_EQ(l0_after.count(l0), 0u) << "rewritten";
  EXPECT_EQ(l0_after.size(), 2u) << "in place: the load's L0 table's heir and the new flush's";
  for (const LiveTable& t : LiveTables(db_.get())) {
    if (t.level != 0 || t.smallest == "a-new-key") continue;
    EXPECT_GT(t.bits_per_key, 10) << Rewrites();
  }
  EXPECT_EQ(RewritesOffTheirPlan(log_->Lines(), 0.35), "") << "built to the plan it was weighed by";
  // Its heir, on the plan, is not rewritten again.
  const std::regex heir(absl::StrFormat(R"(rebuilt table #%d at L0.* #([0-9]+) with)", l0));
  std::smatch m;
  const std::string lines = Rewrites();
  ASSERT_TRUE(std::regex_search(lines, m, heir)) << lines;
  GetUntilQuiet(std::chrono::seconds(6), std::chrono::seconds(30));
  EXPECT_EQ(Rewrites().find("rebuilt table #" + m[1].str() + " "), std::string::npos) << Rewrites();
  testing::ExpectAllFound(db_.get(), keys_, "after the L0 rewrite", &ValueOf);
}

}  // namespace
}  // namespace sstfilter
