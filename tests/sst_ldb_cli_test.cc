// sstfilter_sst on LevelDB tables end to end: .ldb files written by
// libleveldb (a leveldb::DB in a temporary directory), the tool run as a
// process, its output and exit status checked.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "inspect/leveldb_table.h"
#include "inspect/sst_source.h"
#include "tests/db_test_util.h"
#include "tests/ldb_test_util.h"
#include "tests/sst_test_util.h"
#include "tests/tool_runner.h"

namespace sstfilter {
namespace {

using testing::Contains;
using testing::LdbConfig;
using testing::LdbFilter;
using Result = testing::ToolResult;

Result RunTool(const std::vector<std::string>& args) {
  return testing::RunTool(SSTFILTER_SST_BIN, args);
}

using testing::Count;
using testing::NumberAfter;

// 16-byte keys: a fixed prefix and random bytes, so random 16-byte samples
// fall before, among and after them.
std::vector<std::string> PresentKeys(size_t n) {
  std::vector<std::string> keys = testing::RandomKeys(n, 11, 16);
  return keys;
}

class SstLdbCliTest : public ::testing::TestWithParam<testing::LdbWriter> {
 protected:
  std::string Write(const std::vector<std::string>& keys, const LdbConfig& config) {
    return testing::WriteLdbTable(dir_.path() + absl::StrFormat("/db%d", ++dbs_), keys, config);
  }
  testing::TempDir dir_;
  int dbs_ = 0;
};

// Described: the LevelDB path, the policy, per-block filters, keys per
// filter summing to the table's entries, the encoding, FP rate.
TEST_P(SstLdbCliTest, DescribedAndQueried) {
  LdbConfig config;
  config.filter = GetParam().filter;
  config.encoding = GetParam().encoding;
  const std::vector<std::string> keys = PresentKeys(4000);
  const std::string path = Write(keys, config);
  std::vector<std::string> args = {"--file", path, "--sample_absent", "20000", "--seed", "7"};
  for (size_t i = 0; i < keys.size(); i += 10) {
    args.push_back("--key_hex=" + absl::BytesToHexString(keys[i]));
  }
  const Result r = RunTool(args);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Ours in the leveldb encoding takes LevelDB's own policy name.
  const bool builtin = GetParam().filter == LdbFilter::kBuiltin;
  const bool leveldb_bytes = builtin || GetParam().encoding == EncodingId::kLevelDb;
  EXPECT_TRUE(Contains(r.output, "table                  LevelDB")) << r.output;
  EXPECT_TRUE(Contains(r.output, "entries                4000")) << r.output;
  EXPECT_TRUE(Contains(r.output, std::string("filter policy          ") +
                                     (leveldb_bytes ? "leveldb.BuiltinBloomFilter2" : "sstfilter.bloom")))
      << r.output;
  EXPECT_TRUE(Contains(r.output, "one per 2048 bytes of data-block offsets (lg(base) 11")) << r.output;
  EXPECT_TRUE(Contains(r.output, "encoding               " +
                                     (builtin ? std::string("leveldb k=6")
                                              : std::string(EncodingName(GetParam().encoding)))))
      << r.output;
  // 4000 keys of ~40 bytes with values: ~40 blocks of 4 KB, one per filter.
  EXPECT_GE(NumberAfter(r.output, "filters in use"), 30) << r.output;
  EXPECT_GE(NumberAfter(r.output, "bits/key spent"), 9.9) << r.output;
  EXPECT_LE(NumberAfter(r.output, "bits/key spent"), 16) << r.output;
  // Every present key asked: may be present.
  EXPECT_EQ(Count(r.output, "): may be present"), 400u) << r.output;
  EXPECT_EQ(Count(r.output, "): absent"), 0u) << r.output;
  // The sample: FP measured within binomial bounds of the expected rate.
  const double expected = NumberAfter(r.output, "expected fp rate");
  EXPECT_GT(expected, 0.002) << r.output;
  EXPECT_LT(expected, 0.03) << r.output;
  const std::string label = "measured fp rate       ";
  const size_t at = r.output.find(label);
  ASSERT_NE(at, std::string::npos) << r.output;
  double measured = 0, positives = 0, asked = 0, sample_expected = 0;
  ASSERT_EQ(std::sscanf(r.output.c_str() + at + label.size(),
                        "%lf (%lf of the %lf keys that reached a filter; expected %lf", &measured,
                        &positives, &asked, &sample_expected),
            4)
      << r.output;
  // Random keys spread evenly: the filters they reach are the table's.
  EXPECT_NEAR(sample_expected, expected, expected * 0.1) << r.output;
  EXPECT_GT(asked, 19000) << r.output;  // Few random keys fall past the last key.
  EXPECT_LE(positives, testing::BinomialUpperBound(asked, sample_expected)) << r.output;
  EXPECT_GE(positives, testing::BinomialLowerBound(asked, sample_expected)) << r.output;
}

TEST_P(SstLdbCliTest, AbsentKeysAreMostlyAbsent) {
  LdbConfig config;
  config.filter = GetParam().filter;
  config.encoding = GetParam().encoding;
  const std::string path = Write(PresentKeys(4000), config);
  std::vector<std::string> args = {"--file", path};
  for (const std::string& key : testing::RandomKeys(100, 99, 16)) {
    args.push_back("--key_hex=" + absl::BytesToHexString(key));
  }
  const Result r = RunTool(args);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(Count(r.output, "): "), 100u) << r.output;
  EXPECT_GE(Count(r.output, "): absent"), 95u) << r.output;  // ~1% FP.
}

INSTANTIATE_TEST_SUITE_P(Policies, SstLdbCliTest,
                         ::testing::ValuesIn(testing::AllLdbWriters()),
                         [](const auto& info) { return info.param.name; });

class SstLdbCliCases : public SstLdbCliTest {};

TEST_F(SstLdbCliCases, UncompressedSmallBlocksShareFilters) {
  LdbConfig config;
  config.snappy = false;
  config.block_size = 256;
  std::vector<std::string> keys;
  for (int i = 0; i < 3000; ++i) keys.push_back(absl::StrFormat("user%06d", i));
  const std::string path = Write(keys, config);
  const Result r = RunTool({"--file", path, "--key", "user000000", "--key", "user002999",
                            "--key", "user001500", "--key", "zzz"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "index block uncompressed")) << r.output;
  // ~256-byte blocks: several per 2 KB window, so more keys per filter
  // than per block and fewer filters than blocks.
  EXPECT_LT(NumberAfter(r.output, "filters in use"), NumberAfter(r.output, "data blocks"))
      << r.output;
  EXPECT_TRUE(Contains(r.output, "key \"user000000\" (10 bytes): may be present")) << r.output;
  EXPECT_TRUE(Contains(r.output, "key \"user002999\" (10 bytes): may be present")) << r.output;
  EXPECT_TRUE(Contains(r.output, "key \"user001500\" (10 bytes): may be present")) << r.output;
  EXPECT_TRUE(Contains(r.output, "key \"zzz\" (3 bytes): absent (after the table's last key)"))
      << r.output;
}

TEST_F(SstLdbCliCases, VersionsAcrossBlocks) {
  LdbConfig config;
  config.versions = 60;
  config.value_size = 100;
  config.block_size = 1024;
  const std::string path = Write({"a", "hot", "z"}, config);
  const Result r = RunTool({"--file", path, "--key", "a", "--key", "hot", "--key", "z"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "entries                180")) << r.output;
  EXPECT_EQ(Count(r.output, "): may be present"), 3u) << r.output;
}

TEST_F(SstLdbCliCases, NoFilterIsDescribedButNotQueried) {
  LdbConfig config;
  config.filter = LdbFilter::kNone;
  const std::string path = Write(PresentKeys(500), config);
  Result r = RunTool({"--file", path});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "filter policy          (none)")) << r.output;
  EXPECT_TRUE(Contains(r.output, "filter                 none")) << r.output;
  r = RunTool({"--file", path, "--key", "x"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_TRUE(Contains(r.output, "the table has no filter")) << r.output;
}

TEST_F(SstLdbCliCases, ForeignPolicyIsDescribedButNotQueried) {
  LdbConfig config;
  config.filter = LdbFilter::kForeign;
  const std::string path = Write(PresentKeys(500), config);
  Result r = RunTool({"--file", path});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "filter policy          example.OtherBloom")) << r.output;
  EXPECT_TRUE(Contains(r.output, "encoding               unknown")) << r.output;
  r = RunTool({"--file", path, "--sample_absent", "10"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_TRUE(Contains(r.output, "'example.OtherBloom'")) << r.output;
}

// Damage: exit 1 with a message naming the file and the problem, never a
// signal.
TEST_F(SstLdbCliCases, DamagedTablesExitOne) {
  const std::string path = Write(PresentKeys(4000), LdbConfig{});
  const std::string bytes = testing::ReadFileBytes(path);
  const LevelDbTable table = ReadLevelDbTable(*NewStringSstSource(bytes), true).value();
  const struct {
    uint64_t at;
    std::string message;
  } cases[] = {
      {table.filter_handle.offset + 10, "the filter block"},
      {table.filter_handle.offset + table.filter_handle.size - 1, "the filter block"},
      {table.footer.index.offset + 5, "the index block"},
      {table.index[3].handle.offset + 20, "LevelDB reading the data blocks"},
      {bytes.size() - 3, "not a block-based SST file"},
  };
  for (const auto& c : cases) {
    std::string damaged = bytes;
    damaged[c.at] ^= 0x10;
    const std::string damaged_path = dir_.path() + "/damaged.ldb";
    testing::WriteFileBytes(damaged_path, damaged);
    const Result r = RunTool({"--file", damaged_path, "--key", "k"});
    EXPECT_EQ(r.term_signal, 0) << r.output;
    EXPECT_EQ(r.exit_code, 1) << c.message << "\n" << r.output;
    EXPECT_TRUE(Contains(r.output, "sstfilter_sst: " + damaged_path + ": ")) << r.output;
    EXPECT_TRUE(Contains(r.output, c.message)) << c.message << "\n" << r.output;
  }
}

}  // namespace
}  // namespace sstfilter
