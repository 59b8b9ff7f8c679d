// sstfilter_sst --db with what the serving process's census left in the
// DB's directory (table/census/traffic_file.h): the sampled lookups and the
// projection by them, the share of Gets that find their key, and the Gets'
// spread over the tables, end to end on small trees.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "filter/allocation/tree_text.h"
#include "filter/allocation/tree_traffic.h"
#include "filter/cache_model/traffic_popularity.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "table/census/open_db.h"
#include "table/census/traffic_file.h"
#include "table/rocksdb/registration.h"
#include "tests/db_test_util.h"
#include "tests/sst_advisor_util.h"

namespace sstfilter {
namespace {

using advisor_testing::Last;
using advisor_testing::NumberBefore;
using advisor_testing::Result;
using advisor_testing::Row;
using advisor_testing::RunTool;
using advisor_testing::WriteL0Tables;
using testing::Contains;
using testing::RandomKeys;
using testing::TempDir;
using testing::ValueFor;

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
      {{{numbers[0], 0.9}, {numbers[1], 0.1}}, std::nullopt, "", {}, {}});
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
  std::ofstream(dir.path() + "/" + kTrafficFileName) << FormatTrafficFile({{}, 0.25, "", {}, {}});
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
  std::ofstream(dir.path() + "/" + kTrafficFileName)
      << FormatTrafficFile({shares, 0.0, "", {}, {}});
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

// A DB whose OPTIONS file turns automatic compactions off: its case says
// L0's tables stay, as the census's tree does (LevelTargets::l0_stays).
TEST(SstAdvisorTrafficTest, ATreeCaseSaysWhereL0TablesStay) {
  EnsureRocksDbFilterPoliciesRegistered();
  TempDir dir;
  auto open_and_flush = [&](bool compactions_off) {
    rocksdb::Options options;
    options.create_if_missing = true;
    options.disable_auto_compactions = compactions_off;
    rocksdb::BlockBasedTableOptions table;
    ASSERT_TRUE(CreateFilterPolicyStrictly("sstfilter.bloom:10", &table.filter_policy).ok());
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(OpenDb(options, dir.path(), &db).ok());
    for (const std::string& k : RandomKeys(1000, compactions_off ? 2 : 1)) {
      ASSERT_TRUE(db->Put({}, k, ValueFor(k)).ok());
    }
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  };
  open_and_flush(false);
  Result r = RunTool({"--db", dir.path(), "--tree_text"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_FALSE(Contains(r.output, "l0_stays")) << r.output;
  open_and_flush(true);
  r = RunTool({"--db", dir.path(), "--tree_text"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "\ntargets l0_stays\n")) << r.output;
}

}  // namespace
}  // namespace sstfilter
