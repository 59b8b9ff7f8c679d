// sstfilter_sst --db end to end: a RocksDB tree of known shape (two L0
// tables, L5, L6) built by one policy, the tool run as a process on it while
// the DB stays open, its levels checked against the DB's own metadata, and
// its modelled data-block reads per absent Get against the false positives
// RocksDB's statistics count on absent-key Gets. Then small trees of L0
// tables: damaged ones, a closed output, filters of several kinds. What the
// census's traffic file tells it: sst_advisor_traffic_test.cc.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "table/census/census_listener.h"
#include "table/census/open_db.h"
#include "table/census/traffic_file.h"
#include "table/rocksdb/registration.h"
#include "tests/db_test_util.h"
#include "tests/sst_advisor_util.h"
#include "tests/tool_runner.h"

namespace sstfilter {
namespace {

using advisor_testing::Last;
using advisor_testing::NumberBefore;
using advisor_testing::Result;
using advisor_testing::Row;
using advisor_testing::RunTool;
using advisor_testing::TableFiles;
using advisor_testing::WriteL0Tables;
using testing::AbsentKeys;
using testing::Contains;
using testing::RandomKeys;
using testing::TempDir;
using testing::ValueFor;

class SstAdvisorTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    EnsureRocksDbFilterPoliciesRegistered();
    options_.create_if_missing = true;
    options_.disable_auto_compactions = true;
    options_.num_levels = 7;
    options_.level_compaction_dynamic_level_bytes = true;
    options_.compression = rocksdb::kNoCompression;
    options_.statistics = rocksdb::CreateDBStatistics();
    rocksdb::BlockBasedTableOptions table;
    ASSERT_TRUE(CreateFilterPolicyStrictly(GetParam(), &table.filter_policy).ok()) << GetParam();
    options_.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    ASSERT_TRUE(OpenDb(options_, dir_.path(), &db_).ok());
  }

  void WriteAndFlush(const std::vector<std::string>& keys) {
    for (const std::string& k : keys) ASSERT_TRUE(db_->Put({}, k, ValueFor(k)).ok());
    ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
  }

  // The tree: 60000 keys in L6, 6000 in L5, two L0 tables of 2000.
  void BuildTree() {
    WriteAndFlush(RandomKeys(60000, 1));
    ASSERT_TRUE(db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
    WriteAndFlush(RandomKeys(6000, 2));
    std::vector<rocksdb::LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    std::vector<std::string> l0;
    for (const auto& f : files) {
      if (f.level == 0) l0.push_back(f.name);
    }
    ASSERT_EQ(l0.size(), 1u);
    ASSERT_TRUE(db_->CompactFiles(rocksdb::CompactionOptions(), l0, 5).ok());
    WriteAndFlush(RandomKeys(2000, 3));
    WriteAndFlush(RandomKeys(2000, 4));
  }

  // False positives per absent-key Get, counted by RocksDB.
  double MeasuredReadsPerAbsentGet(size_t gets) {
    auto ticker = [this](rocksdb::Tickers t) { return options_.statistics->getTickerCount(t); };
    const uint64_t positive = ticker(rocksdb::BLOOM_FILTER_FULL_POSITIVE);
    const uint64_t true_positive = ticker(rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE);
    std::string value;
    for (const std::string& k : AbsentKeys(gets, 5)) {
      EXPECT_TRUE(db_->Get({}, k, &value).IsNotFound());
    }
    return static_cast<double>((ticker(rocksdb::BLOOM_FILTER_FULL_POSITIVE) - positive) -
                               (ticker(rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE) - true_positive)) /
           static_cast<double>(gets);
  }

  TempDir dir_;
  rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
};

TEST_P(SstAdvisorTest, LevelsAndReadsOfAnOpenDb) {
  BuildTree();
  const Result r = RunTool({"--db", dir_.path()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "column family 'default': 4 tables, 70000 keys")) << r.output;
  const std::vector<std::string> l0 = Row(r.output, "L0"), l5 = Row(r.output, "L5"),
                                 l6 = Row(r.output, "L6"), all = Row(r.output, "all");
  ASSERT_FALSE(l0.empty() || l5.empty() || l6.empty() || all.empty()) << r.output;
  EXPECT_EQ(l0[0] + " " + l0[1], "2 4000") << r.output;
  EXPECT_EQ(l5[0] + " " + l5[1], "1 6000") << r.output;
  EXPECT_EQ(l6[0] + " " + l6[1], "1 60000") << r.output;
  // Every level spans the key space: each is reached by every absent key.
  EXPECT_EQ(l0[l0.size() - 2], "2.00") << r.output;
  EXPECT_EQ(l6[l6.size() - 2], "1.00") << r.output;
  const double modelled = Last(all);
  EXPECT_NEAR(modelled, Last(l0) + Last(l5) + Last(l6), 2e-4) << r.output;
  // 4 filters near 1% each.
  EXPECT_GT(modelled, 0.025) << r.output;
  EXPECT_LT(modelled, 0.07) << r.output;
  constexpr size_t kGets = 40000;
  const double measured = MeasuredReadsPerAbsentGet(kGets);
  EXPECT_LE(measured * kGets, testing::BinomialUpperBound(kGets, modelled * 1.15))
      << "measured " << measured << "\n" << r.output;
  EXPECT_GE(measured * kGets, testing::BinomialLowerBound(kGets, modelled / 1.15))
      << "measured " << measured << "\n" << r.output;
  // The small runs above the bottom are where per-level accuracy gains.
  EXPECT_GT(NumberBefore(r.output, "x fewer"), 1.3) << r.output;
  const double bytes = NumberBefore(r.output, "x the filter bytes");
  EXPECT_GT(bytes, 0.3) << r.output;
  EXPECT_LT(bytes, 0.95) << r.output;
  // The block cache section: without --cache_mb, the cache of the DB's open
  // (its LOG); a cache holding every block reads nothing; one of 10 bytes,
  // a thousandth of any block, reads a filter for each run an absent Get
  // checks (reach 2 + 1 + 1) and an index and a data block per false
  // positive.
  EXPECT_TRUE(Contains(r.output, "(from the DB's LOG: its last open)")) << r.output;
  Result cached = RunTool({"--db", dir_.path(), "--cache_mb", "1024"});
  ASSERT_EQ(cached.exit_code, 0) << cached.output;
  EXPECT_TRUE(Contains(cached.output, "they fit")) << cached.output;
  EXPECT_TRUE(Contains(cached.output, "absent Gets   0.000 + 0.000 + 0.000 = 0.000"))
      << cached.output;
  cached = RunTool({"--db", dir_.path(), "--cache_mb", "0.00001", "--hit_share", "0"});
  ASSERT_EQ(cached.exit_code, 0) << cached.output;
  EXPECT_TRUE(Contains(cached.output, "they do not fit")) << cached.output;
  const std::vector<std::string> absent = Row(cached.output, "  absent Gets");
  ASSERT_EQ(absent.size(), 7u) << cached.output;  // F + I + D = T
  EXPECT_NEAR(std::stod(absent[0]), 4.0, 0.01) << cached.output;
  EXPECT_NEAR(std::stod(absent[2]), modelled, 0.002) << cached.output;
  EXPECT_TRUE(Contains(cached.output, "0% found")) << cached.output;
  EXPECT_TRUE(Contains(cached.output, "(--hit_share)")) << cached.output;
  EXPECT_TRUE(Contains(cached.output, ":optimize_levels:cache_aware:hit_share:0 would keep"))
      << cached.output;
  // Every Get finding its key, in a cache of a tenth of the filters: the
  // plan drops the deepest level's filter, and the rebuild section names
  // its table, what rewriting it saves and from which Get rate.
  cached = RunTool({"--db", dir_.path(), "--cache_mb", "0.01", "--hit_share", "1"});
  ASSERT_EQ(cached.exit_code, 0) << cached.output;
  EXPECT_TRUE(Contains(cached.output, "none at L6 and below")) << cached.output;
  EXPECT_TRUE(Contains(cached.output, "tables off that plan")) << cached.output;
  const size_t l6_row = cached.output.find(" L6, ", cached.output.find("tables off that plan"));
  ASSERT_NE(l6_row, std::string::npos) << cached.output;
  const std::string row = cached.output.substr(l6_row, cached.output.find('\n', l6_row) - l6_row);
  EXPECT_TRUE(Contains(row, "-> none bits/key: saves ")) << row;
  EXPECT_TRUE(Contains(row, " Gets/s")) << row;
}

INSTANTIATE_TEST_SUITE_P(EachKind, SstAdvisorTest,
                         ::testing::Values("bloomfilter:10", "ribbonfilter:10",
                                           "sstfilter.bloom:10:cache_local",
                                           "sstfilter.bloom:10:compact", "sstfilter.bloom:10"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) c = std::isalnum(c) ? c : '_';
                           return name;
                         });

// A tree built by a cache-aware sstfilter policy: the block-cache section
// plans with the DB's own policy (its OPTIONS file's), as its rebuild loop
// does, not one with today's bits. A move of the loop's that the traffic
// file carries is named with its direction, and the tables the plan would
// move the other way wait, as the loop's do.
class SstAdvisorCacheAwareTest : public SstAdvisorTest {
 protected:
  void SetUp() override {
    options_.listeners = {NewLevelCensusListener()};  // optimize_levels needs the census.
    SstAdvisorTest::SetUp();
  }
};

TEST_P(SstAdvisorCacheAwareTest, ThePlanIsTheDbsPolicysAndAMoveTheOtherWayWaits) {
  BuildTree();
  ASSERT_TRUE(db_->Close().ok());
  db_.reset();
  Result r = RunTool({"--db", dir_.path(), "--cache_mb", "0.01", "--hit_share", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, GetParam() + ":hit_share:1 would keep")) << r.output;
  EXPECT_TRUE(Contains(r.output, "none at L6 and below")) << r.output;
  const std::string l6_row = " L6, ";
  const size_t off_plan = r.output.find("tables off that plan");
  ASSERT_NE(r.output.find(l6_row, off_plan), std::string::npos) << r.output;
  EXPECT_FALSE(Contains(r.output, "wait out a move")) << r.output;
  const int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  TrafficSummary traffic;
  traffic.level_moves[6] = {/*fewer_bits=*/false, now - 60};
  std::ofstream(dir_.path() + "/" + kTrafficFileName) << FormatTrafficFile(traffic);
  r = RunTool({"--db", dir_.path(), "--cache_mb", "0.01", "--hit_share", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output,
                       "L6: the census's rebuild loop began moving its filters to more "
                       "bits/key"))
      << r.output;
  EXPECT_TRUE(Contains(r.output, "  1 of them wait out a move of their level the other way"))
      << r.output;
  EXPECT_EQ(r.output.find(l6_row, r.output.find("tables off that plan")), std::string::npos)
      << r.output;
  // Nothing stated and no share in the traffic file: the loop waits.
  r = RunTool({"--db", dir_.path(), "--cache_mb", "0.01"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "rewrites none while the share of Gets found is assumed"))
      << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    CacheAware, SstAdvisorCacheAwareTest,
    ::testing::Values("sstfilter.bloom:10:banded:optimize_levels:cache_aware"));

// A tree whose per-level policy (no cache) had its budget lowered since
// the tables were built: the section names the plan's bits against the
// tree's and lists the rewrites that free bits first.
class SstAdvisorPerLevelTest : public SstAdvisorCacheAwareTest {};

TEST_P(SstAdvisorPerLevelTest, ABudgetLoweredSinceTheBuildListsTheFreesFirst) {
  BuildTree();
  db_.reset();
  const std::string lowered = GetParam() + ":budget_mb:0.02";
  rocksdb::BlockBasedTableOptions table;
  ASSERT_TRUE(CreateFilterPolicyStrictly(lowered, &table.filter_policy).ok());
  options_.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  // Its OPTIONS file names the budget; no Get, no rate: its loop rewrites nothing.
  ASSERT_TRUE(OpenDb(options_, dir_.path(), &db_).ok());
  ASSERT_TRUE(db_->Close().ok());
  db_.reset();
  const Result r = RunTool({"--db", dir_.path()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const size_t section = r.output.find(lowered + "'s plan: ");
  EXPECT_TRUE(
      Contains(r.output, " MiB of filters for the tables it weighs (below L0), which hold "))
      << r.output;
  ASSERT_NE(section, std::string::npos) << r.output;
  const size_t listed = r.output.find("the census's rebuild loop rewrites", section);
  ASSERT_NE(listed, std::string::npos) << r.output;
  const size_t first = r.output.find("\n  #", listed);
  ASSERT_NE(first, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(" frees ", first), r.output.find(": frees", first) + 1) << r.output;
  EXPECT_LT(r.output.find("frees", first), r.output.find("\n", first + 1)) << r.output;
}

INSTANTIATE_TEST_SUITE_P(PerLevel, SstAdvisorPerLevelTest,
                         ::testing::Values("sstfilter.bloom:20:cache_local:optimize_levels"));

// An access-aware per-level tree (L5 and L6 a table each, built before any
// Get: at the static plan): with no table shares in the traffic file the
// loop weighs nothing; with L6's table (ten times L5's keys) drawing nine
// Gets in ten and L5's one in a hundred, L5's is listed to free its bits
// (planned by its level alone, it is on the plan).
class SstAdvisorAccessAwareTest : public SstAdvisorCacheAwareTest {};

TEST_P(SstAdvisorAccessAwareTest, TablesArePlannedByTheirSharesOnceKnown) {
  BuildTree();
  ASSERT_TRUE(db_->Close().ok());
  db_.reset();
  // Opened again with automatic compactions on, as its OPTIONS file then
  // says: L0's tables are the plan's to size, not staying as built
  // (LevelTargets::l0_stays; ATreeCaseSaysWhereL0TablesStay). Levels sized
  // from the top, so that none starts a compaction (two L0 tables are under
  // the trigger; sized from the bottom, RocksDB would move L5 into L6).
  options_.disable_auto_compactions = false;
  options_.level_compaction_dynamic_level_bytes = false;
  ASSERT_TRUE(OpenDb(options_, dir_.path(), &db_).ok());
  std::vector<rocksdb::LiveFileMetaData> files;
  db_->GetLiveFilesMetaData(&files);
  ASSERT_TRUE(db_->Close().ok());
  db_.reset();
  Result r = RunTool({"--db", dir_.path()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "weighs no table until the Gets' traffic is known")) << r.output;

  TrafficSummary traffic;
  std::map<int, uint64_t> table_at;
  for (const auto& f : files) {
    if (f.level > 0) table_at[f.level] = f.file_number;
  }
  ASSERT_EQ(table_at.size(), 2u);
  traffic.tables[table_at[5]] = 0.01;
  traffic.tables[table_at[6]] = 0.9;
  std::ofstream(dir_.path() + "/" + kTrafficFileName) << FormatTrafficFile(traffic);
  r = RunTool({"--db", dir_.path()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const size_t listed = r.output.find("the census's rebuild loop rewrites");
  ASSERT_NE(listed, std::string::npos) << r.output;
  const auto row = [&](int level) {
    const size_t at = r.output.find(absl::StrFormat("#%d L%d, ", table_at[level], level), listed);
    return at == std::string::npos ? std::string()
                                   : r.output.substr(at, r.output.find('\n', at) - at);
  };
  EXPECT_TRUE(Contains(row(5), " bits/key: frees ")) << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    AccessAware, SstAdvisorAccessAwareTest,
    ::testing::Values("sstfilter.bloom:10:cache_local:optimize_levels:access_aware"));

TEST(SstAdvisorErrorsTest, MissingNotADirectoryNotADbAndFlagsItRefuses) {
  TempDir dir;
  Result r = RunTool({"--db", dir.path() + "/missing"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, "no such directory: " + dir.path() + "/missing")) << r.output;
  EXPECT_FALSE(Contains(r.output, "not a directory")) << r.output;
  const std::string file = dir.path() + "/file";
  std::ofstream(file) << "not a DB";
  r = RunTool({"--db", file});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, "not a directory: " + file)) << r.output;
  r = RunTool({"--db", dir.path()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Contains(r.output, ": not a RocksDB database (no options file read")) << r.output;
  r = RunTool({"--db", dir.path(), "--key", "a"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.output, "--db takes no --file, --key")) << r.output;
  r = RunTool({"--db", dir.path(), "--cache_mb", "-1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.output, "--cache_mb=-1: expected the block cache's MiB")) << r.output;
  r = RunTool({"--db", dir.path(), "--hit_share", "1.5"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.output, "--hit_share=1.5: expected the share of Gets")) << r.output;
  r = RunTool({"--file", file, "--cache_mb", "8"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.output, "--cache_mb, --hit_share and --tree_text go with --db"))
      << r.output;
  // Numbers as option strings write them: no hex, and the value as given.
  r = RunTool({"--db", dir.path(), "--cache_mb", "0x10"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(Contains(r.output, "'0x10'")) << r.output;
  EXPECT_TRUE(Contains(r.output, "not a plain decimal number")) << r.output;
  r = RunTool({"--db", dir.path(), "--hit_share", "1.0000001"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(Contains(r.output, "--hit_share=1.0000001: expected")) << r.output;
}

TEST(SstAdvisorDamageTest, DamagedTablesNamedAndTotalsSaidIncomplete) {
  TempDir dir;
  WriteL0Tables(dir.path(), {{"sstfilter.bloom:10:cache_local", RandomKeys(2000, 1)},
                             {"sstfilter.bloom:10:cache_local", RandomKeys(2000, 2)},
                             {"sstfilter.bloom:10:cache_local", RandomKeys(2000, 3)},
                             {"sstfilter.bloom:10:cache_local", RandomKeys(2000, 4)}});
  const std::vector<std::string> names = TableFiles(dir.path());
  ASSERT_EQ(names.size(), 4u);
  // The oldest table truncated, a newer one gone: a reader that stops its
  // replay of the MANIFEST at the first table it cannot use sees none.
  std::filesystem::resize_file(dir.path() + "/" + names[0], 1000);
  std::filesystem::remove(dir.path() + "/" + names[2]);
  const Result r = RunTool({"--db", dir.path()});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_FALSE(Contains(r.output, "no tables")) << r.output;
  EXPECT_TRUE(Contains(r.output, names[0] + " (L0): truncated: 1000 bytes")) << r.output;
  EXPECT_TRUE(Contains(r.output, names[2] + " (L0): missing")) << r.output;
  EXPECT_TRUE(Contains(r.output, "totals cover 2 of 4 tables")) << r.output;
  const std::vector<std::string> l0 = Row(r.output, "L0");
  ASSERT_GE(l0.size(), 2u) << r.output;
  EXPECT_EQ(l0[0] + " " + l0[1], "2 4000") << r.output;
}

// stdout a pipe nobody reads (its reading end closed before the tool
// starts), stderr captured, TMPDIR `tmp`. Everything the child needs is
// built before the fork: the test process has threads.
Result RunIntoClosedPipe(const std::vector<std::string>& args, const std::string& tmp,
                         const std::string& stderr_path) {
  std::vector<std::string> strings{SSTFILTER_SST_BIN};
  strings.insert(strings.end(), args.begin(), args.end());
  std::vector<char*> argv, envp;
  for (std::string& s : strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::string tmpdir = "TMPDIR=" + tmp;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string_view(*e).rfind("TMPDIR=", 0) != 0) envp.push_back(*e);
  }
  envp.push_back(tmpdir.data());
  envp.push_back(nullptr);
  Result result;
  int out[2];
  if (pipe(out) != 0) return result;
  close(out[0]);
  const int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  const pid_t pid = fork();
  if (pid == 0) {
    if (err < 0 || dup2(out[1], 1) < 0 || dup2(err, 2) < 0) _exit(127);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  close(out[1]);
  close(err);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return result;
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  std::ifstream in(stderr_path);
  result.output.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return result;
}

TEST(SstAdvisorOutputTest, ClosedOutputIsNotDamageAndLeavesNoTemporaryFiles) {
  TempDir dir, tmp, logs;
  WriteL0Tables(dir.path(), {{"sstfilter.bloom:10:cache_local", RandomKeys(2000, 1)},
                             {"bloomfilter:10", RandomKeys(2000, 2)}});
  const Result r = RunIntoClosedPipe({"--db", dir.path()}, tmp.path(), logs.path() + "/err");
  EXPECT_EQ(r.exit_code, 141) << r.term_signal << " " << r.output;  // 128 + SIGPIPE.
  EXPECT_EQ(r.output, "");
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));

  // As users meet it: `| head -1` reads the first line and leaves.
  const std::string command = "{ TMPDIR='" + tmp.path() + "' " SSTFILTER_SST_BIN " --db '" +
                              dir.path() + "' 2>'" + logs.path() + "/err'; echo $? >'" +
                              logs.path() + "/rc'; } | head -1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char line[256] = {};
  const bool got_line = std::fgets(line, sizeof line, pipe) != nullptr;
  pclose(pipe);
  EXPECT_TRUE(got_line && Contains(line, "column family 'default': 2 tables")) << line;
  std::ifstream rc(logs.path() + "/rc"), err(logs.path() + "/err");
  int status = -1;
  rc >> status;
  EXPECT_TRUE(status == 0 || status == 141) << status;
  const std::string messages((std::istreambuf_iterator<char>(err)),
                             std::istreambuf_iterator<char>());
  EXPECT_EQ(messages, "");
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path()));
}

TEST(SstAdvisorMixedTest, ALevelOfSeveralKindsShowsTheirSpread) {
  TempDir dir;
  WriteL0Tables(dir.path(), {{"sstfilter.bloom:10:cache_local", RandomKeys(2000, 1)},
                             {"sstfilter.bloom:10:cache_local", RandomKeys(2000, 2)},
                             {"sstfilter.bloom:16:cache_local", RandomKeys(2000, 3)},
                             {"bloomfilter:6", RandomKeys(2000, 4)}});
  const Result r = RunTool({"--db", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(Contains(r.output, "other kinds")) << r.output;
  EXPECT_TRUE(Contains(r.output, "3 kinds")) << r.output;
  // Each kind with its tables, most first, and the range of bits/key.
  EXPECT_TRUE(Contains(r.output, "cache_local k=6 x2, ")) << r.output;
  EXPECT_TRUE(Contains(r.output, "cache_local k=9 x1")) << r.output;
  EXPECT_TRUE(Contains(r.output, "RocksDB FastLocalBloom k=4 x1")) << r.output;
  const size_t at = r.output.find("\n      bits/key ");
  double low = 0, high = 0;
  ASSERT_NE(at, std::string::npos) << r.output;
  ASSERT_EQ(std::sscanf(r.output.c_str() + at, " bits/key %lf-%lf", &low, &high), 2) << r.output;
  EXPECT_NEAR(low, 6.2, 0.3) << r.output;
  EXPECT_NEAR(high, 16.0, 0.3) << r.output;
  EXPECT_TRUE(Contains(r.output, "(median 10.")) << r.output;
}

TEST(SstAdvisorMixedTest, OneKindSpendingDifferentBitsShowsTheirRange) {
  TempDir dir;
  // 20 keys spend more bits each: the filter is at least a cache line.
  WriteL0Tables(dir.path(), {{"sstfilter.bloom:10:cache_local", RandomKeys(2000, 1)},
                             {"sstfilter.bloom:10:cache_local", RandomKeys(20, 2)}});
  const Result r = RunTool({"--db", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::vector<std::string> l0 = Row(r.output, "L0");
  ASSERT_GE(l0.size(), 7u) << r.output;
  EXPECT_EQ(l0[4] + " " + l0[5], "cache_local k=6") << r.output;
  EXPECT_TRUE(Contains(r.output, "\n      bits/key 10.")) << r.output;
  EXPECT_FALSE(Contains(r.output, "kinds")) << r.output;
}

// A DB directory is input (table/census/dir_file.h): a FIFO or a link to
// /dev/zero at the traffic file's name or the LOG's is named and left out,
// never read (a FIFO would hang the advisor, /dev/zero fill its memory); a
// LOG's high-priority ratio outside [0, 1] is taken as the policy takes it
// (0); a hit share of -0 is 0%.
TEST(SstAdvisorDirectoryTest, FilesThatAreNotRegularAreNamedNotRead) {
  TempDir dir;
  WriteL0Tables(dir.path(), {{"sstfilter.bloom:10:cache_local", RandomKeys(2000, 1)}});
  const std::string traffic = dir.path() + "/" + kTrafficFileName;
  const std::string log = dir.path() + "/LOG";
  ASSERT_EQ(mkfifo(traffic.c_str(), 0644), 0);
  std::filesystem::remove(log);
  ASSERT_EQ(mkfifo(log.c_str(), 0644), 0);
  Result r = RunTool({"--db", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "lookups: not shown: " + traffic + " is a FIFO")) << r.output;
  EXPECT_TRUE(Contains(r.output, "block cache: not known (its LOG: " + log + " is a FIFO)"))
      << r.output;
  std::filesystem::remove(traffic);
  std::filesystem::remove(log);
  std::filesystem::create_symlink("/dev/zero", traffic);
  std::filesystem::create_symlink("/dev/zero", log);
  r = RunTool({"--db", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, traffic + " is a character device")) << r.output;
  EXPECT_TRUE(Contains(r.output, log + " is a character device")) << r.output;
  std::filesystem::remove(log);
  std::ofstream(log) << "  Options.table_factory\n    block_cache_name: LRUCache\n"
                        "    block_cache_options:\n      capacity : 8388608\n"
                        "      high_pri_pool_ratio: 7.000\n";
  r = RunTool({"--db", dir.path(), "--hit_share", "-0"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "block cache 8.00 MiB (from the DB's LOG: its last open), "
                                 "high-priority pool 0%"))
      << r.output;
  EXPECT_TRUE(Contains(r.output, "  0% found")) << r.output;
  EXPECT_FALSE(Contains(r.output, "-0% found")) << r.output;
}

// Tables without filters: no projection at 0 bits/key.
TEST(SstAdvisorDirectoryTest, NoFilterBytesNoProjection) {
  TempDir dir;
  {
    rocksdb::Options options;
    options.create_if_missing = true;
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(OpenDb(options, dir.path(), &db).ok());
    for (const std::string& k : RandomKeys(2000, 1)) ASSERT_TRUE(db->Put({}, k, ValueFor(k)).ok());
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  }
  const Result r = RunTool({"--db", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "the tables have no filter bytes to spend")) << r.output;
  EXPECT_FALSE(Contains(r.output, "x fewer")) << r.output;
}

}  // namespace
}  // namespace sstfilter
