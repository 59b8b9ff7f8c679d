// sstfilter_sst end to end: SSTs written with RocksDB's SstFileWriter, the
// tool run as a process, its output and exit status checked.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "tests/db_test_util.h"
#include "tests/sst_test_util.h"
#include "tests/tool_runner.h"

namespace sstfilter {
namespace {

using testing::SstConfig;
using testing::TestFilter;

using testing::Contains;
using testing::Count;
using Result = testing::ToolResult;

Result RunTool(const std::vector<std::string>& args) {
  return testing::RunTool(SSTFILTER_SST_BIN, args);
}

using testing::NumberAfter;

std::vector<std::string> DecimalKeys(size_t n) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < n; ++i) keys.push_back(absl::StrFormat("user%06d", i));
  return keys;
}

class SstCliTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::vector<std::string>& keys,
                    const SstConfig& config) {
    const std::string path = dir_.path() + "/" + name;
    testing::WriteSst(path, keys, config);
    return path;
  }
  testing::TempDir dir_;
};

TEST_F(SstCliTest, FullFilterDescribedAndQueried) {
  const std::string path = Write("full.sst", DecimalKeys(2000), SstConfig{});
  Result r = RunTool({"--file", path, "--key", "user000042", "--key=user000999",
                      "--key_hex", absl::BytesToHexString("user000007"),
                      "--sample_absent", "4000", "--seed", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "filter policy          sstfilter.bloom")) << r.output;
  EXPECT_TRUE(Contains(r.output, "filter                 full")) << r.output;
  EXPECT_TRUE(Contains(r.output, "filter entries         2000")) << r.output;
  EXPECT_TRUE(Contains(r.output, "encoding               leveldb k=6")) << r.output;
  // 10 bits/key: 20000 bits + the k byte over 2000 keys.
  EXPECT_NEAR(NumberAfter(r.output, "bits/key spent"), 10.004, 1e-3) << r.output;
  const double expected = NumberAfter(r.output, "expected fp rate");
  EXPECT_GT(expected, 0.006);
  EXPECT_LT(expected, 0.012);
  // Every key given, from either flag, is answered, in order.
  EXPECT_TRUE(Contains(r.output, "key \"user000042\" (10 bytes): may be present")) << r.output;
  EXPECT_TRUE(Contains(r.output, "key \"user000999\" (10 bytes): may be present")) << r.output;
  EXPECT_TRUE(Contains(r.output, "key \"user000007\" (10 bytes): may be present")) << r.output;
  EXPECT_TRUE(Contains(r.output, "4000 random keys of 10 bytes (seed 3)")) << r.output;
  EXPECT_TRUE(Contains(r.output, "absence                not checked")) << r.output;
  const double measured = NumberAfter(r.output, "measured fp rate");
  EXPECT_GE(measured, 0.0) << r.output;
  EXPECT_LE(measured * 4000, testing::BinomialUpperBound(4000, expected)) << r.output;
}

// The newest format_version the linked RocksDB writes (6 from RocksDB 8.6,
// its default from 9.0; 7 from 10.4, its default from 10.11) is read, its
// checksums verified, its compression property decoded (from 7: the
// compression manager's name, empty when compression is off, and the types
// used, none here).
TEST_F(SstCliTest, NewestFormatVersion) {
  SstConfig config;
  config.format_version = testing::NewestFormatVersion();
  config.partitioned = true;
  config.compression = rocksdb::kNoCompression;
  const std::string path = Write("newest.sst", DecimalKeys(2000), config);
  Result r = RunTool({"--file", path, "--key=user000042", "--key=nouser"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, absl::StrFormat("format_version         %d (checksum",
                                                 config.format_version)))
      << r.output;
  EXPECT_TRUE(Contains(r.output, ", verified)")) << r.output;
  EXPECT_TRUE(Contains(r.output, config.format_version >= 7
                                     ? "compression            none\n"
                                     : "compression            NoCompression\n"))
      << r.output;
  EXPECT_TRUE(Contains(r.output, "key \"user000042\" (10 bytes): may be present")) << r.output;
}

TEST_F(SstCliTest, AbsentKeysAreMostlyAbsent) {
  const std::string path = Write("full.sst", DecimalKeys(2000), SstConfig{});
  std::vector<std::string> args = {"--file", path};
  for (int i = 0; i < 50; ++i) args.push_back(absl::StrFormat("--key=nouser%06d", i));
  Result r = RunTool(args);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  size_t absent = 0;
  for (size_t at = 0; (at = r.output.find("): absent", at)) != std::string::npos; ++at) ++absent;
  EXPECT_GE(absent, 45u) << r.output;  // ~1% FP: more than 5 of 50 is a broken filter
}

// Short keys: random ones would often be present, so the tool scans the
// table and must not count present keys as false positives (2000 of the
// 65536 2-byte keys are present: 3% more "positives" if it did).
TEST_F(SstCliTest, ShortKeysAreCheckedAgainstTheTable) {
  std::vector<std::string> keys;
  for (int i = 0; i < 2000; ++i) keys.push_back(std::string{static_cast<char>(i * 37 >> 8), static_cast<char>(i * 37)});
  const std::string path = Write("short.sst", keys, SstConfig{});
  Result r = RunTool({"--file", path, "--sample_absent", "3000", "--seed", "5"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "3000 random keys of 2 bytes")) << r.output;
  EXPECT_TRUE(Contains(r.output, "checked against the table's 2000 keys")) << r.output;
  const double expected = NumberAfter(r.output, "expected fp rate");
  const double measured = NumberAfter(r.output, "measured fp rate");
  EXPECT_GE(measured, 0.0) << r.output;
  EXPECT_LE(measured * 3000, testing::BinomialUpperBound(3000, expected)) << r.output;
}

// The sample must not replay a common test-data generator: a table of
// RandomKeys(n, 1) (mt19937_64 seeded with 1) sampled with --seed 1 once
// measured an FP rate of 1, every "absent" key being a present one.
TEST_F(SstCliTest, SampleDoesNotReplayTheSeedsStream) {
  const std::string path = Write("random.sst", testing::RandomKeys(3000, 1), SstConfig{});
  Result r = RunTool({"--file", path, "--sample_absent", "3000", "--seed", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const double expected = NumberAfter(r.output, "expected fp rate");
  const double measured = NumberAfter(r.output, "measured fp rate");
  EXPECT_GE(measured, 0.0) << r.output;
  EXPECT_LE(measured * 3000, testing::BinomialUpperBound(3000, expected)) << r.output;
  // Without --seed a random seed is picked and printed.
  r = RunTool({"--file", path, "--sample_absent", "10"});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_GT(NumberAfter(r.output, "(seed"), 0) << r.output;
}

TEST_F(SstCliTest, PartitionedFilter) {
  SstConfig config;
  config.partitioned = true;
  config.format_version = 4;
  config.index_block_restart_interval = 4;
  const std::vector<std::string> keys = testing::RandomKeys(3000, 9);
  const std::string path = Write("partitioned.sst", keys, config);
  std::vector<std::string> args = {"--file", path, "--sample_absent", "2000", "--seed", "7"};
  for (int i = 0; i < 3000; i += 97) args.push_back("--key_hex=" + absl::BytesToHexString(keys[i]));
  Result r = RunTool(args);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "filter                 partitioned:")) << r.output;
  EXPECT_GT(NumberAfter(r.output, "partitioned:"), 5) << r.output;
  EXPECT_TRUE(Contains(r.output, "leveldb k=6 (")) << r.output;
  EXPECT_FALSE(Contains(r.output, "): absent")) << r.output;  // all keys asked are present
  EXPECT_TRUE(Contains(r.output, "measured fp rate")) << r.output;
}

TEST_F(SstCliTest, CacheLocalFilter) {
  for (bool partitioned : {false, true}) {
    SstConfig config;
    config.encoding = EncodingId::kCacheLocal;
    config.partitioned = partitioned;
    const std::string path = Write("cache_local.sst", DecimalKeys(3000), config);
    std::vector<std::string> args = {"--file", path, "--sample_absent", "3000", "--seed", "2"};
    for (int i = 0; i < 3000; i += 101) args.push_back(absl::StrFormat("--key=user%06d", i));
    Result r = RunTool(args);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_TRUE(Contains(r.output, "encoding               cache_local k=")) << r.output;
    if (!partitioned) {
      // 3000 keys at 10 bits/key: ceil(30000 / 512) = 59 lines of 64 bytes,
      // and the 4-byte trailer.
      EXPECT_TRUE(Contains(r.output, "filter bytes           3780")) << r.output;
    }
    EXPECT_TRUE(Contains(r.output, "may be present")) << r.output;
    EXPECT_FALSE(Contains(r.output, "): absent")) << r.output;  // all keys asked are present
    // Small partitions round up to whole lines and spend more bits per key.
    const double expected = NumberAfter(r.output, "expected fp rate");
    EXPECT_GT(expected, partitioned ? 0.001 : 0.005) << r.output;
    EXPECT_LT(expected, 0.02) << r.output;
    const double measured = NumberAfter(r.output, "measured fp rate");
    EXPECT_GE(measured, 0.0) << r.output;
    EXPECT_LE(measured * 3000, testing::BinomialUpperBound(3000, expected)) << r.output;
  }
}

// Every encoding of the list, full and partitioned: the inspector names
// the encoding, finds every key asked and measures an FP rate within the
// binomial bounds of the one it expects.
TEST_F(SstCliTest, EveryEncodingIsDescribedAndQueried) {
  for (EncodingId encoding : AllEncodingIds()) {
    for (bool partitioned : {false, true}) {
      SCOPED_TRACE(absl::StrFormat("%s, %s", EncodingName(encoding),
                                   partitioned ? "partitioned" : "full"));
      SstConfig config;
      config.encoding = encoding;
      config.partitioned = partitioned;
      const std::string path = Write(absl::StrFormat("%s.sst", EncodingName(encoding)),
                                     DecimalKeys(3000), config);
      std::vector<std::string> args = {"--file", path, "--sample_absent", "3000", "--seed", "5"};
      for (int i = 0; i < 3000; i += 101) args.push_back(absl::StrFormat("--key=user%06d", i));
      const Result r = RunTool(args);
      ASSERT_EQ(r.exit_code, 0) << r.output;
      EXPECT_TRUE(Contains(r.output,
                           "encoding               " + std::string(EncodingName(encoding)) + " "))
          << r.output;
      EXPECT_EQ(Count(r.output, "): may be present"), 30u) << r.output;
      EXPECT_EQ(Count(r.output, "): absent"), 0u) << r.output;
      const double expected = NumberAfter(r.output, "expected fp rate");
      EXPECT_GT(expected, 0.001) << r.output;
      EXPECT_LT(expected, 0.03) << r.output;
      const double measured = NumberAfter(r.output, "measured fp rate");
      EXPECT_LE(measured * 3000, testing::BinomialUpperBound(3000, expected)) << r.output;
    }
  }
}

TEST_F(SstCliTest, ForeignFilterIsNamedAndNotQueried) {
  SstConfig config;
  config.filter = TestFilter::kBuiltin;
  const std::string path = Write("builtin.sst", DecimalKeys(500), config);
  Result r = RunTool({"--file", path});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "rocksdb.BuiltinBloomFilter")) << r.output;
  EXPECT_TRUE(Contains(r.output, "not written by sstfilter")) << r.output;
  r = RunTool({"--file", path, "--key", "user000001"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_TRUE(Contains(r.output, "not sstfilter's")) << r.output;
  r = RunTool({"--file", path, "--sample_absent", "10"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
}

TEST_F(SstCliTest, TableWithoutFilter) {
  SstConfig config;
  config.filter = TestFilter::kNone;
  const std::string path = Write("none.sst", DecimalKeys(100), config);
  Result r = RunTool({"--file", path});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "filter                 none")) << r.output;
  r = RunTool({"--file", path, "--key", "user000001"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_TRUE(Contains(r.output, "has no filter")) << r.output;
}

// Whole keys asked of a prefix-only filter would be false negatives.
TEST_F(SstCliTest, PrefixOnlyFilterIsNotQueried) {
  SstConfig config;
  config.prefix_only = true;
  const std::string path = Write("prefix.sst", DecimalKeys(500), config);
  Result r = RunTool({"--file", path});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "prefix extractor       rocksdb.FixedPrefix.4")) << r.output;
  r = RunTool({"--file", path, "--key", "user000001"});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_TRUE(Contains(r.output, "only key prefixes")) << r.output;
}

TEST_F(SstCliTest, NotAnSstFile) {
  const std::string empty = dir_.path() + "/empty.sst";
  testing::WriteFileBytes(empty, "");
  Result r = RunTool({"--file", empty});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(Contains(r.output, "not a block-based SST file: file of 0 bytes is too short"))
      << r.output;

  const std::string text = dir_.path() + "/notes.txt";
  std::string lines;
  for (int i = 0; i < 20; ++i) lines += "this is a text file, not a table\n";
  testing::WriteFileBytes(text, lines);
  r = RunTool({"--file", text});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(Contains(r.output, "no SST magic number")) << r.output;

  const std::string good = Write("good.sst", DecimalKeys(500), SstConfig{});
  const std::string bytes = testing::ReadFileBytes(good);
  const std::string truncated = dir_.path() + "/truncated.sst";
  testing::WriteFileBytes(truncated, bytes.substr(0, bytes.size() - 20));
  r = RunTool({"--file", truncated});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(Contains(r.output, "not a block-based SST file")) << r.output;

  r = RunTool({"--file", dir_.path() + "/missing.sst"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(Contains(r.output, "No such file or directory")) << r.output;

  r = RunTool({"--file", dir_.path()});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(Contains(r.output, "not a regular file")) << r.output;
}

// A flipped bit in the filter is caught by RocksDB's checksum verification.
TEST_F(SstCliTest, DamagedFilterFailsChecksum) {
  const std::string good = Write("good.sst", DecimalKeys(500), SstConfig{});
  std::string bytes = testing::ReadFileBytes(good);
  const auto filter =
      ReadSstFilter(*NewStringSstSource(bytes), testing::IndexFormatOf(good));
  ASSERT_TRUE(filter.ok()) << filter.status();
  bytes[filter->meta_handle.offset + 3] ^= 0x10;
  const std::string bad = dir_.path() + "/bad.sst";
  testing::WriteFileBytes(bad, bytes);
  Result r = RunTool({"--file", bad, "--key", "user000001"});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(Contains(r.output, "checksum")) << r.output;
}

// A table written without checksums cannot be verified: the tool says so
// instead of "verified", and warns before answering from its filter, which
// may be damaged (here: its bits zeroed, so a present key reads "absent").
TEST_F(SstCliTest, TableWithoutChecksumsIsNotCalledVerified) {
  SstConfig config;
  config.checksum = rocksdb::kNoChecksum;
  const std::string good = Write("nochecksum.sst", DecimalKeys(500), config);
  std::string bytes = testing::ReadFileBytes(good);
  const auto filter = ReadSstFilter(*NewStringSstSource(bytes), testing::IndexFormatOf(good));
  ASSERT_TRUE(filter.ok()) << filter.status();
  // Zero the bits, keep the final byte (k): the filter then rejects every key.
  const uint64_t begin = filter->meta_handle.offset;
  std::fill(bytes.begin() + static_cast<std::ptrdiff_t>(begin),
            bytes.begin() + static_cast<std::ptrdiff_t>(begin + filter->meta_handle.size - 1), '\0');
  const std::string damaged = dir_.path() + "/damaged.sst";
  testing::WriteFileBytes(damaged, bytes);
  Result r = RunTool({"--file", damaged, "--key", "user000001"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(Contains(r.output, "(checksum none, not verifiable)")) << r.output;
  EXPECT_FALSE(Contains(r.output, "verified)")) << r.output;
  EXPECT_TRUE(Contains(r.output, "key \"user000001\" (10 bytes): absent")) << r.output;
  const size_t warning = r.output.find("warning ");
  ASSERT_NE(warning, std::string::npos) << r.output;
  EXPECT_LT(warning, r.output.find("key \"user000001\"")) << r.output;
  EXPECT_TRUE(Contains(r.output, "can answer \"absent\" for a present key")) << r.output;
  // A checksummed table gives no warning.
  r = RunTool({"--file", Write("checked.sst", DecimalKeys(500), SstConfig{}), "--key",
               "user000001"});
  EXPECT_TRUE(Contains(r.output, ", verified)")) << r.output;
  EXPECT_FALSE(Contains(r.output, "warning")) << r.output;
}

TEST_F(SstCliTest, BadFlags) {
  const std::string path = Write("full.sst", DecimalKeys(100), SstConfig{});
  Result r = RunTool({});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(Contains(r.output, "--file or --db is required")) << r.output;
  r = RunTool({"--file", path, "--key_hex", "abc"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(Contains(r.output, "--key_hex=abc")) << r.output;
  r = RunTool({"--file", path, "--key_hex", "zz"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  r = RunTool({"--file", path, "--sample_absent=-1"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(Contains(r.output, "--sample_absent=-1")) << r.output;
  // A sample too big to hold is refused up front, not an allocation failure.
  r = RunTool({"--file", path, "--sample_absent=9223372036854775807"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(Contains(r.output, "need a count in [0, 100000000]")) << r.output;
  r = RunTool({"--file", path, "--key"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(Contains(r.output, "--key needs a value")) << r.output;
}

}  // namespace
}  // namespace sstfilter
