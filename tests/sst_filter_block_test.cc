// The SST filter parser (inspect/block_entries.h, inspect/sst_filter_block.h): real
// SSTs from RocksDB's SstFileWriter in every filter mode and format version,
// hand-built blocks, and damaged input (which must give an error, never a
// crash: the sanitizer build runs this too).
#include "inspect/sst_filter_block.h"

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "inspect/block_entries.h"
#include "inspect/block_handle.h"
#include "inspect/coding.h"
#include "inspect/sst_source.h"
#include "rocksdb/sst_file_reader.h"
#include "table/rocksdb/bits_reader_factory.h"
#include "tests/db_test_util.h"
#include "tests/sst_test_util.h"

namespace sstfilter {
namespace {

using testing::ExpectDataLoss;
using testing::Parse;
using testing::SstConfig;
using testing::TestFilter;

constexpr size_t kNumKeys = 3000;

std::unique_ptr<rocksdb::FilterBitsReader> ReaderFor(const SstFilterPartition& p) {
  return std::unique_ptr<rocksdb::FilterBitsReader>(NewBitsReader(rocksdb::Slice(p.contents)));
}

// ---- Real tables: (partitioned, format_version, index restart interval) ----

class SstFilterBlockTest
    : public ::testing::TestWithParam<std::tuple<bool, int, int>> {
 protected:
  void SetUp() override {
    config_.partitioned = std::get<0>(GetParam());
    config_.format_version = std::get<1>(GetParam());
    config_.index_block_restart_interval = std::get<2>(GetParam());
    keys_ = testing::RandomKeys(kNumKeys, /*seed=*/config_.format_version);
    path_ = dir_.path() + "/t.sst";
    testing::WriteSst(path_, keys_, config_);
    format_ = testing::IndexFormatOf(path_);
  }

  testing::TempDir dir_;
  SstConfig config_;
  std::vector<std::string> keys_;
  std::string path_;
  SstIndexFormat format_;
};

TEST_P(SstFilterBlockTest, FindsTheFilterRocksDbWrote) {
  // Values are delta-encoded from format_version 4 on, which is what
  // exercises the delta decoding of the partition index.
  EXPECT_EQ(format_.value_delta_encoded, config_.format_version >= 4);
  auto file = OpenSstFileSource(path_);
  ASSERT_TRUE(file.ok()) << file.status();
  absl::StatusOr<SstFilter> filter = ReadSstFilter(**file, format_);
  ASSERT_TRUE(filter.ok()) << filter.status();
  EXPECT_EQ(filter->footer.format_version, static_cast<uint32_t>(config_.format_version));
  EXPECT_EQ(filter->compatibility_name, "sstfilter.bloom");

  rocksdb::SstFileReader reader{rocksdb::Options()};
  ASSERT_TRUE(reader.Open(path_).ok());
  const auto props = reader.GetTableProperties();
  // RocksDB's filter_size counts every filter block it wrote, the partition
  // index included: our sum must match it to the byte.
  if (config_.partitioned) {
    EXPECT_EQ(filter->layout, SstFilterLayout::kPartitioned);
    EXPECT_EQ(filter->meta_block_name, "partitionedfilter.sstfilter.bloom");
    EXPECT_GT(filter->partitions.size(), 5u);
    EXPECT_EQ(filter->FilterBytes() + filter->meta_handle.size, props->filter_size);
  } else {
    EXPECT_EQ(filter->layout, SstFilterLayout::kFull);
    EXPECT_EQ(filter->meta_block_name, "fullfilter.sstfilter.bloom");
    ASSERT_EQ(filter->partitions.size(), 1u);
    EXPECT_EQ(filter->FilterBytes(), props->filter_size);
  }
}

TEST_P(SstFilterBlockTest, EveryWrittenKeyMayMatchInItsPartition) {
  absl::StatusOr<SstFilter> filter = Parse(testing::ReadFileBytes(path_), format_);
  ASSERT_TRUE(filter.ok()) << filter.status();
  std::vector<std::unique_ptr<rocksdb::FilterBitsReader>> readers;
  for (const SstFilterPartition& p : filter->partitions) readers.push_back(ReaderFor(p));
  for (const std::string& key : keys_) {
    const std::vector<size_t> candidates = CandidatePartitions(*filter, key);
    ASSERT_FALSE(candidates.empty());
    // Keys are unique here, so the partition RocksDB picks (the first
    // candidate) alone must hold the key.
    EXPECT_TRUE(readers[candidates[0]]->MayMatch(key)) << "partition " << candidates[0];
  }
  // And the partitions are not all-ones: absent keys mostly miss.
  size_t positives = 0;
  const std::vector<std::string> absent = testing::AbsentKeys(2000, 7);
  for (const std::string& key : absent) {
    for (size_t i : CandidatePartitions(*filter, key)) {
      if (readers[i]->MayMatch(key)) {
        ++positives;
        break;
      }
    }
  }
  EXPECT_LE(positives, testing::BinomialUpperBound(2000, 0.02));
}

TEST_P(SstFilterBlockTest, PartitionKeysBoundTheirKeys) {
  absl::StatusOr<SstFilter> filter = Parse(testing::ReadFileBytes(path_), format_);
  ASSERT_TRUE(filter.ok()) << filter.status();
  if (!config_.partitioned) {  // One filter with no key range.
    ASSERT_EQ(filter->partitions.size(), 1u);
    EXPECT_TRUE(filter->partitions[0].last_user_key.empty());
    return;
  }
  const std::string max_key = *std::max_element(keys_.begin(), keys_.end());
  EXPECT_GE(filter->partitions.back().last_user_key, max_key);
  for (size_t i = 1; i < filter->partitions.size(); ++i) {
    EXPECT_LT(filter->partitions[i - 1].last_user_key, filter->partitions[i].last_user_key);
    // Partitions are written back to back.
    const BlockHandle& prev = filter->partitions[i - 1].handle;
    EXPECT_EQ(filter->partitions[i].handle.offset, prev.offset + prev.size + kBlockTrailerSize);
  }
}

// Every truncation and a sweep of byte damage over the footer, the metaindex
// and the filter index: an error or a parse, never a crash or OOB read.
TEST_P(SstFilterBlockTest, DamagedCopiesNeverCrash) {
  const std::string good = testing::ReadFileBytes(path_);
  for (size_t len = 0; len < good.size(); len += (len + 64 < good.size() ? 97 : 1)) {
    EXPECT_FALSE(Parse(good.substr(0, len), format_).ok()) << "truncated to " << len;
  }
  absl::StatusOr<SstFilter> filter = Parse(good, format_);
  ASSERT_TRUE(filter.ok());
  std::vector<std::pair<uint64_t, uint64_t>> regions = {
      {good.size() - 53, 53},
      {filter->footer.metaindex.offset, filter->footer.metaindex.size + kBlockTrailerSize},
      {filter->meta_handle.offset, std::min<uint64_t>(filter->meta_handle.size, 400)}};
  for (const auto& [begin, size] : regions) {
    for (uint64_t pos = begin; pos < begin + size; ++pos) {
      for (unsigned char v : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
        std::string bad = good;
        bad[pos] = static_cast<char>(v);
        absl::StatusOr<SstFilter> parsed = Parse(bad, format_);
        if (!parsed.ok()) {
          EXPECT_TRUE(absl::IsDataLoss(parsed.status())) << parsed.status();
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    FormatsAndModes, SstFilterBlockTest,
    ::testing::Combine(::testing::Bool(), ::testing::ValuesIn(testing::WritableFormatVersions()),
                       ::testing::Values(1, 4)),
    [](const auto& info) {
      return std::string(std::get<0>(info.param) ? "Partitioned" : "Full") + "V" +
             std::to_string(std::get<1>(info.param)) + "Restart" +
             std::to_string(std::get<2>(info.param));
    });

// ---- Other filters and targeted damage ----

class SstFilterFileTest : public ::testing::Test {
 protected:
  std::string Write(const SstConfig& config) {
    const std::string path = dir_.path() + "/" + std::to_string(count_++) + ".sst";
    testing::WriteSst(path, testing::RandomKeys(500, 3), config);
    return path;
  }
  testing::TempDir dir_;
  int count_ = 0;
};

TEST_F(SstFilterFileTest, BuiltinFilterIsFoundUnderItsOwnName) {
  SstConfig config;
  config.filter = TestFilter::kBuiltin;
  const std::string path = Write(config);
  absl::StatusOr<SstFilter> filter =
      Parse(testing::ReadFileBytes(path), testing::IndexFormatOf(path));
  ASSERT_TRUE(filter.ok()) << filter.status();
  EXPECT_EQ(filter->layout, SstFilterLayout::kFull);
  EXPECT_EQ(filter->compatibility_name, "rocksdb.BuiltinBloomFilter");
}

TEST_F(SstFilterFileTest, TableWithoutFilter) {
  SstConfig config;
  config.filter = TestFilter::kNone;
  const std::string path = Write(config);
  absl::StatusOr<SstFilter> filter =
      Parse(testing::ReadFileBytes(path), testing::IndexFormatOf(path));
  ASSERT_TRUE(filter.ok()) << filter.status();
  EXPECT_EQ(filter->layout, SstFilterLayout::kNone);
  EXPECT_TRUE(filter->partitions.empty());
  EXPECT_TRUE(CandidatePartitions(*filter, "k").empty());
}

TEST_F(SstFilterFileTest, NotAnSst) {
  ExpectDataLoss("", "too short");
  ExpectDataLoss("hello, world\n", "too short");
  ExpectDataLoss(std::string(4096, 'x'), "no SST magic number");
  std::mt19937_64 rng(5);
  std::string garbage(10000, '\0');
  for (char& c : garbage) c = static_cast<char>(rng());
  ExpectDataLoss(garbage, "no SST magic number");
}

std::string PutVarint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}

TEST_F(SstFilterFileTest, TargetedDamageIsNamed) {
  const std::string path = Write(SstConfig{});
  const std::string good = testing::ReadFileBytes(path);
  const SstIndexFormat format = testing::IndexFormatOf(path);
  absl::StatusOr<SstFilter> filter = Parse(good, format);
  ASSERT_TRUE(filter.ok());
  const size_t footer = good.size() - 53;

  std::string bad = good;
  bad[good.size() - 12] = 9;  // format_version, little-endian
  ExpectDataLoss(bad, "unsupported format_version 9");

  bad = good;
  bad[footer] = 42;  // checksum type
  ExpectDataLoss(bad, "unknown checksum type 42");

  bad = good;  // metaindex handle past the end of the file
  std::string handles = PutVarint(good.size()) + PutVarint(10) + PutVarint(0) + PutVarint(1);
  handles.resize(40, '\0');
  bad.replace(footer + 1, 40, handles);
  ExpectDataLoss(bad, "metaindex handle");

  bad = good;  // the filter block marked as compressed
  bad[filter->meta_handle.offset + filter->meta_handle.size] = 1;
  ExpectDataLoss(bad, "the filter block (offset");
  ExpectDataLoss(bad, "block checksum mismatch");
  ExpectDataLoss(bad, "compressed", /*verify_checksums=*/false);

  bad = good;  // the metaindex claiming a huge restart count
  const uint64_t count_at = filter->footer.metaindex.offset + filter->footer.metaindex.size - 4;
  bad.replace(count_at, 4, std::string("\xff\xff\xff\x7f", 4));
  ExpectDataLoss(bad, "the metaindex block (offset");
  ExpectDataLoss(bad, "restart points", /*verify_checksums=*/false);
}

// ---- Hand-built blocks ----

// entries, then restart offsets and the restart count, all fixed32.
std::string Block(const std::string& entries, const std::vector<uint32_t>& restarts) {
  std::string block = entries;
  auto put32 = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) block.push_back(static_cast<char>(v >> (8 * i)));
  };
  for (uint32_t r : restarts) put32(r);
  put32(static_cast<uint32_t>(restarts.size()));
  return block;
}

TEST(SstFormatTest, DeltaEncodedIndexValues) {
  // "a" -> (100, 40); "ab" shares 1 byte: size 40 + 5; "b" restarts: full handle.
  std::string entries;
  entries += PutVarint(0) + PutVarint(1) + "a" + PutVarint(100) + PutVarint(40);
  const auto second = static_cast<uint32_t>(entries.size());
  entries += PutVarint(1) + PutVarint(1) + "b" + PutVarint(5 << 1);  // zigzag(+5)
  const auto third = static_cast<uint32_t>(entries.size());
  entries += PutVarint(0) + PutVarint(1) + "b" + PutVarint(7) + PutVarint(8);
  auto parsed = ParseIndexBlock(Block(entries, {0, third}), /*value_delta_encoded=*/true);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->size(), 3u);
  EXPECT_EQ((*parsed)[0].key, "a");
  EXPECT_EQ((*parsed)[0].handle, (BlockHandle{100, 40}));
  EXPECT_EQ((*parsed)[1].key, "ab");
  EXPECT_EQ((*parsed)[1].handle, (BlockHandle{145, 45}));
  EXPECT_EQ((*parsed)[2].key, "b");
  EXPECT_EQ((*parsed)[2].handle, (BlockHandle{7, 8}));
  // A restart point inside an entry, or at one that shares its key.
  EXPECT_FALSE(ParseIndexBlock(Block(entries, {0, 1}), true).ok());
  EXPECT_FALSE(ParseIndexBlock(Block(entries, {0, second}), true).ok());
}

TEST(SstFormatTest, NegativeDeltaBelowZeroIsAnError) {
  std::string entries;
  entries += PutVarint(0) + PutVarint(1) + "a" + PutVarint(100) + PutVarint(40);
  entries += PutVarint(1) + PutVarint(1) + "b" + PutVarint((41 << 1) - 1);  // zigzag(-41)
  auto parsed = ParseIndexBlock(Block(entries, {0}), true);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("overflows"), std::string::npos) << parsed.status();
}

TEST(SstFormatTest, PlainEntriesAndTheirDamage) {
  std::string entries;
  entries += PutVarint(0) + PutVarint(3) + PutVarint(2) + "abc" + "v1";
  const size_t first_entry_size = entries.size();
  entries += PutVarint(2) + PutVarint(1) + PutVarint(0) + "x";
  auto parsed = ParseBlockEntries(Block(entries, {0}));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->size(), 2u);
  EXPECT_EQ((*parsed)[0].key, "abc");
  EXPECT_EQ((*parsed)[0].value, "v1");
  EXPECT_EQ((*parsed)[1].key, "abx");
  EXPECT_EQ((*parsed)[1].value, "");

  EXPECT_FALSE(ParseBlockEntries("abc").ok());                   // no room for the count
  EXPECT_FALSE(ParseBlockEntries(Block(entries, {})).ok());      // zero restarts
  std::string shares_too_much = PutVarint(4) + PutVarint(1) + PutVarint(0) + "x";
  EXPECT_FALSE(ParseBlockEntries(Block(shares_too_much, {0})).ok());
  std::string value_too_long = PutVarint(0) + PutVarint(1) + PutVarint(200) + "x";
  EXPECT_FALSE(ParseBlockEntries(Block(value_too_long, {0})).ok());
  // Every truncation of the entries area.
  for (size_t len = 0; len < entries.size(); ++len) {
    if (len == 0 || len == first_entry_size) continue;  // Valid blocks.
    EXPECT_FALSE(ParseBlockEntries(Block(entries.substr(0, len), {0})).ok()) << len;
  }
}

// Random blocks (half of them ending in a valid restart array: one restart,
// at offset 0, so that some parse): no crash or read past the end, and the
// contract of inspect/block_entries.h: what does not parse is DataLoss with
// a message. What parses as an index block with value lengths parses alike
// as plain entries: the same keys, each value one whole block handle.
TEST(SstFormatTest, RandomBlocksParseOrAreDataLoss) {
  std::mt19937_64 rng(11);
  auto expect_ok_or_data_loss = [](const absl::Status& s, int i, const char* what) {
    if (s.ok()) return;
    EXPECT_TRUE(absl::IsDataLoss(s)) << what << ", block " << i << ": " << s;
    EXPECT_FALSE(s.message().empty()) << what << ", block " << i;
  };
  int entries_ok = 0, index_ok = 0, delta_index_ok = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string block(rng() % 64, '\0');
    for (char& c : block) c = static_cast<char>(rng() % 4 == 0 ? rng() : rng() % 8);
    if (block.size() >= 8 && rng() % 2) {
      block[0] = 0;  // The entry at the restart shares nothing.
      block.replace(block.size() - 8, 8, std::string("\0\0\0\0\1\0\0\0", 8));
    }
    const absl::StatusOr<std::vector<BlockEntry>> entries = ParseBlockEntries(block);
    const absl::StatusOr<std::vector<IndexEntry>> index = ParseIndexBlock(block, false);
    const absl::StatusOr<std::vector<IndexEntry>> delta = ParseIndexBlock(block, true);
    expect_ok_or_data_loss(entries.status(), i, "entries");
    expect_ok_or_data_loss(index.status(), i, "index");
    expect_ok_or_data_loss(delta.status(), i, "delta-encoded index");
    entries_ok += entries.ok();
    delta_index_ok += delta.ok();
    if (!index.ok()) continue;
    ++index_ok;
    ASSERT_TRUE(entries.ok()) << "block " << i << ": " << entries.status();
    ASSERT_EQ(entries->size(), index->size()) << "block " << i;
    for (size_t e = 0; e < index->size(); ++e) {
      EXPECT_EQ((*entries)[e].key, (*index)[e].key) << "block " << i << " entry " << e;
      std::string_view value = (*entries)[e].value;
      BlockHandle handle;
      ASSERT_TRUE(DecodeBlockHandle(&value, &handle)) << "block " << i << " entry " << e;
      EXPECT_TRUE(value.empty()) << "block " << i << " entry " << e;
      EXPECT_EQ(handle, (*index)[e].handle) << "block " << i << " entry " << e;
    }
  }
  // Blocks that parse were among them, for every parser.
  EXPECT_GT(entries_ok, 100);
  EXPECT_GT(index_ok, 10);
  EXPECT_GT(delta_index_ok, 10);
}

TEST(SstFormatTest, Varints) {
  uint32_t v32 = 0;
  uint64_t v64 = 0;
  std::string_view in = "\xff\xff\xff\xff\x0f";
  EXPECT_TRUE(DecodeVarint32(&in, &v32));
  EXPECT_EQ(v32, 0xffffffffu);
  EXPECT_TRUE(in.empty());
  in = "\xff\xff\xff\xff\x1f";  // 2^32 and more
  EXPECT_FALSE(DecodeVarint32(&in, &v32));
  in = "\xff\xff";  // truncated
  EXPECT_FALSE(DecodeVarint64(&in, &v64));
  std::string max64 = PutVarint(UINT64_MAX);
  in = max64;
  EXPECT_TRUE(DecodeVarint64(&in, &v64));
  EXPECT_EQ(v64, UINT64_MAX);
  std::string too_long(10, '\xff');
  too_long += '\x01';
  in = too_long;
  EXPECT_FALSE(DecodeVarint64(&in, &v64));
}

// ---- Partition choice ----

TEST(CandidatePartitionsTest, FirstPartitionNotBelowTheKey) {
  SstFilter filter;
  filter.layout = SstFilterLayout::kPartitioned;
  for (const char* last : {"b", "d", "d", "f"}) filter.partitions.push_back({last, {}, ""});
  using V = std::vector<size_t>;
  EXPECT_EQ(CandidatePartitions(filter, "a"), V({0}));
  EXPECT_EQ(CandidatePartitions(filter, "b"), V({0, 1}));  // may straddle into 1
  EXPECT_EQ(CandidatePartitions(filter, "c"), V({1}));
  EXPECT_EQ(CandidatePartitions(filter, "d"), V({1, 2, 3}));
  EXPECT_EQ(CandidatePartitions(filter, "e"), V({3}));
  EXPECT_EQ(CandidatePartitions(filter, "f"), V({3}));
  EXPECT_EQ(CandidatePartitions(filter, "z"), V({3}));  // past all: the last
  EXPECT_EQ(CandidatePartitions(filter, std::string("\xff", 1)), V({3}));  // unsigned order
  filter.layout = SstFilterLayout::kFull;
  filter.partitions.resize(1);
  EXPECT_EQ(CandidatePartitions(filter, "zz"), V({0}));
}

}  // namespace
}  // namespace sstfilter
