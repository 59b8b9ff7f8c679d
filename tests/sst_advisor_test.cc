// sstfilter_sst --db end to end: a RocksDB tree of known shape (two L0
// tables, L5, L6) built by one policy, the tool run as a process on it while
// the DB stays open, its levels checked against the DB's own metadata, and
// its modelled data-block reads per absent Get against the false positives
// RocksDB's statistics count on absent-key Gets. Then small trees of L0
// tables: damaged ones, a closed output, filters of several kinds.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "filter/allocation/tree_text.h"
#include "filter/allocation/tree_traffic.h"
#include "filter/cache_model/traffic_popularity.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "table/census/open_db.h"
#include "table/census/traffic_file.h"
#include "table/rocksdb/registration.h"
#include "tests/db_test_util.h"
#include "tests/tool_runner.h"

namespace sstfilter {
namespace {

using testing::AbsentKeys;
using testing::Contains;
using testing::RandomKeys;
using testing::TempDir;
using testing::ValueFor;
using Result = testing::ToolResult;

Result RunTool(const std::vector<std::string>& args) {
  return testing::RunTool(SSTFILTER_SST_BIN, args);
}

// The fields after the first word of the output's line that starts with
// `first` ("L0 ", "all "), split on spaces. (No std::regex: GCC 12 warns
// inside it at -O2 with sanitizers.)
std::vector<std::string> Row(const std::string& output, const std::string& first) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(first + " ", 0) != 0) continue;
    std::vector<std::string> fields;
    std::istringstream in(line.substr(first.size()));
    for (std::string f; in >> f;) fields.push_back(f);
    return fields;
  }
  return {};
}

// The number right before `suffix` in the output (0 if none).
double NumberBefore(const std::string& output, const std::string& suffix) {
  const size_t end = output.find(suffix);
  if (end == std::string::npos) return 0;
  size_t begin = end;
  while (begin > 0 && (std::isdigit(static_cast<unsigned char>(output[begin - 1])) ||
                       output[begin - 1] == '.')) {
    --begin;
  }
  double v = 0;
  return absl::SimpleAtod(output.substr(begin, end - begin), &v) ? v : 0;
}

double Last(const std::vector<std::string>& fields) {
  double v = -1;
  if (!fields.empty()) {
    EXPECT_TRUE(absl::SimpleAtod(fields.back(), &v)) << fields.back();
  }
  return v;
}

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


// A DB in `dir` whose L0 holds one table per key set, each written (and
// flushed) by the policy paired with it; no compaction runs.
void WriteL0Tables(const std::string& dir,
                   const std::vector<std::pair<std::string, std::vector<std::string>>>& tables) {
  EnsureRocksDbFilterPoliciesRegistered();
  for (const auto& [policy, keys] : tables) {
    rocksdb::Options options;
    options.create_if_missing = true;
    options.disable_auto_compactions = true;
    options.compression = rocksdb::kNoCompression;
    rocksdb::BlockBasedTableOptions table;
    ASSERT_TRUE(CreateFilterPolicyStrictly(policy, &table.filter_policy).ok()) << policy;
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(OpenDb(options, dir, &db).ok());
    for (const std::string& k : keys) ASSERT_TRUE(db->Put({}, k, ValueFor(k)).ok());
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  }
}

// The DB's table files, oldest first.
std::vector<std::string> TableFiles(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".sst") names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
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

// The lookups the serving process's census left in the directory
// (traffic_file.h): each level's share of the Gets, and the projection by
// that traffic. Two L0 tables alike, one reached by 90% of the Gets: today
// each absent Get reads 0.9 f + 0.1 f = f (f: their FP), half of the 2 f
// that reach alone gives; access-aware moves bits to the hot table.
TEST(SstAdvisorTrafficTest, ShowsTheSampledLookupsAndTheirProjection) {
  TempDir dir;
  WriteL0Tables(dir.path(), {{"sstfilter.bloom:10:cache_local", RandomKeys(2000, 1)},
                             {"sstfilter.bloom:10:cache_local", RandomKeys(2000, 2)}});
  std::vector<uint64_t> numbers;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path().extension() == ".sst") numbers.push_back(std::stoull(entry.path().stem()));
  }
  ASSERT_EQ(numbers.size(), 2u);
  std::sort(numbers.begin(), numbers.end());
  const std::string path = dir.path() + "/" + kTrafficFileName;
  std::ofstream(path) << FormatTrafficFile(
      {{{numbers[0], 0.9}, {numbers[1], 0.1}}, std::nullopt, "", {}});
  Result r = RunTool({"--db", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "lookups sampled by RocksDB (sstfilter-traffic): of the Gets, "
                                 "L0 100.0% reach each level's tables"))
      << r.output;
  const double all = Last(Row(r.output, "all"));
  const double today = NumberBefore(r.output, " data blocks per absent Get; access-aware");
  EXPECT_NEAR(today, all / 2, all * 0.02) << r.output;
  EXPECT_GT(NumberBefore(r.output, "x fewer\naccess-aware"), 1.2) << r.output;
  // A damaged summary is named and left out; the report goes on.
  std::ofstream(path) << "sstfilter traffic 1\n12 x\n";
  r = RunTool({"--db", dir.path()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "lookups: not shown: sstfilter-traffic: line 2 is not"))
      << r.output;
  EXPECT_FALSE(Contains(r.output, "by that traffic")) << r.output;
}

// The share of Gets that find their key, as the DB's statistics gave the
// census (the summary's hit_share line): the cache section is for it
// unless --hit_share states another. A summary with no table shares says
// nothing of lookups.
TEST(SstAdvisorTrafficTest, TheHitShareFromTheDbsStatistics) {
  TempDir dir;
  WriteL0Tables(dir.path(), {{"sstfilter.bloom:10:cache_local", RandomKeys(2000, 1)}});
  std::ofstream(dir.path() + "/" + kTrafficFileName) << FormatTrafficFile({{}, 0.25, "", {}});
  Result r = RunTool({"--db", dir.path(), "--cache_mb", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "25% found")) << r.output;
  EXPECT_TRUE(Contains(r.output, "(the DB's Gets, as its census last wrote them in "
                                 "sstfilter-traffic)"))
      << r.output;
  EXPECT_TRUE(Contains(r.output, ":cache_aware:hit_share:0.25 would keep")) << r.output;
  EXPECT_FALSE(Contains(r.output, "lookups")) << r.output;
  r = RunTool({"--db", dir.path(), "--cache_mb", "1", "--hit_share", "0.75"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "75% found    ")) << r.output;
  EXPECT_TRUE(Contains(r.output, "(--hit_share)")) << r.output;
  EXPECT_FALSE(Contains(r.output, "25% found")) << r.output;
}

// The Gets' spread from the summary's table shares: an L6 of several
// tables, the first drawing 90% of the Gets, reads fewer blocks by the
// cache model than the same tree with the Gets spread uniformly (its hot
// blocks stay cached), and the section says which spread it used.
TEST(SstAdvisorTrafficTest, TheGetsSpreadAsTheTablesSharesSay) {
  EnsureRocksDbFilterPoliciesRegistered();
  TempDir dir;
  std::vector<uint64_t> numbers;
  {
    rocksdb::Options options;
    options.create_if_missing = true;
    options.num_levels = 7;
    options.level_compaction_dynamic_level_bytes = true;
    options.compression = rocksdb::kNoCompression;
    options.target_file_size_base = 512 << 10;
    rocksdb::BlockBasedTableOptions table;
    ASSERT_TRUE(CreateFilterPolicyStrictly("sstfilter.bloom:10", &table.filter_policy).ok());
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(OpenDb(options, dir.path(), &db).ok());
    for (const std::string& k : RandomKeys(40000, 1)) ASSERT_TRUE(db->Put({}, k, ValueFor(k)).ok());
    rocksdb::CompactRangeOptions rewrite;  // Not a move of the one flushed table.
    rewrite.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    ASSERT_TRUE(db->CompactRange(rewrite, nullptr, nullptr).ok());
    std::vector<rocksdb::LiveFileMetaData> files;
    db->GetLiveFilesMetaData(&files);
    std::sort(files.begin(), files.end(),
              [](const auto& a, const auto& b) { return a.smallestkey < b.smallestkey; });
    for (const auto& f : files) numbers.push_back(f.file_number);
  }
  ASSERT_GE(numbers.size(), kMinPopularityTables) << "the premise: a level of several tables";
  auto absent_reads = [&] {
    const Result r = RunTool({"--db", dir.path(), "--cache_mb", "0.02"});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return std::make_pair(NumberBefore(r.output.substr(r.output.find("absent Gets")), "\n"),
                          r.output);
  };
  const auto [uniform, uniform_output] = absent_reads();
  EXPECT_TRUE(Contains(uniform_output, "(cache model; Gets spread uniformly)")) << uniform_output;
  TableShares shares;
  for (uint64_t n : numbers) shares[n] = 0.1 / static_cast<double>(numbers.size() - 1);
  shares[numbers[0]] = 0.9;
  std::ofstream(dir.path() + "/" + kTrafficFileName) << FormatTrafficFile({shares, 0.0, "", {}});
  const auto [skewed, skewed_output] = absent_reads();
  EXPECT_TRUE(Contains(skewed_output,
                       "(cache model; Gets spread as sstfilter-traffic's table shares say)"))
      << skewed_output;
  EXPECT_GT(uniform, 0.3) << uniform_output;
  EXPECT_LT(skewed, 0.6 * uniform) << skewed_output;

  // The same tree as a decision case (tests/decisions/): the policy and
  // cache it would be planned under, the tree as the model reads it
  // (every tree line reads back), the tables to decide.
  const Result r = RunTool({"--db", dir.path(), "--cache_mb", "0.02", "--tree_text"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "\npolicy sstfilter.bloom:")) << r.output;
  EXPECT_TRUE(Contains(r.output, ":optimize_levels:cache_aware\n")) << r.output;
  EXPECT_TRUE(Contains(r.output, "\ncache mib=0.02 ")) << r.output;
  EXPECT_TRUE(Contains(r.output, "\nhit_share 0 carried\n")) << r.output;
  EXPECT_TRUE(Contains(r.output, "\ndecide L6 bottommost entries=")) << r.output;
  EXPECT_EQ(r.output.substr(r.output.size() - 5), "----\n") << r.output;
  TreeTextReader reader;
  for (const absl::string_view line : absl::StrSplit(r.output, '\n', absl::SkipEmpty())) {
    const absl::Status read = reader.Read(std::string_view(line.data(), line.size()));
    EXPECT_TRUE(read.ok() || absl::IsNotFound(read)) << read;
  }
  const TreeRuns runs = reader.Tree();
  ASSERT_EQ(runs.levels.size(), 7u) << r.output;
  EXPECT_EQ(runs.levels[6].keys, 40000u) << r.output;
  EXPECT_EQ(runs.levels[6].tables, numbers.size()) << r.output;
  ASSERT_NE(runs.traffic, nullptr) << r.output;
  EXPECT_EQ(runs.traffic->levels[6].size(), numbers.size()) << r.output;
  EXPECT_NEAR(runs.traffic->levels[6][0].share, 0.9, 1e-9) << r.output;
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
