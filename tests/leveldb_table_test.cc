// The LevelDB table parser (inspect/leveldb_table.h, leveldb_filter_block.h)
// on tables written by libleveldb itself, with libleveldb as the reference:
// each filter the parser finds must be byte for byte the filter LevelDB's
// own policy builds from the keys of the data blocks in that filter's
// window; hand-built filter blocks and damaged tables give DataLoss naming
// the problem.
#include "inspect/leveldb_table.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "inspect/block_checksum.h"
#include "inspect/leveldb_filter_block.h"
#include "inspect/sst_source.h"
#include "leveldb/env.h"
#include "leveldb/iterator.h"
#include "leveldb/table.h"
#include "tests/db_test_util.h"
#include "tests/ldb_test_util.h"
#include "tests/sst_test_util.h"

namespace sstfilter {
namespace {

using testing::LdbConfig;
using testing::LdbFilter;

absl::StatusOr<LevelDbTable> Parse(const std::string& bytes, bool verify = true) {
  return ReadLevelDbTable(*NewStringSstSource(bytes), verify);
}

// Every internal key of the table at path, in order, read by libleveldb.
std::vector<std::string> InternalKeysOf(const std::string& path) {
  leveldb::Env* env = leveldb::Env::Default();
  uint64_t size = 0;
  leveldb::RandomAccessFile* raw_file = nullptr;
  EXPECT_TRUE(env->GetFileSize(path, &size).ok());
  EXPECT_TRUE(env->NewRandomAccessFile(path, &raw_file).ok());
  std::unique_ptr<leveldb::RandomAccessFile> file(raw_file);
  leveldb::Table* raw_table = nullptr;
  EXPECT_TRUE(leveldb::Table::Open(leveldb::Options(), file.get(), size, &raw_table).ok());
  std::unique_ptr<leveldb::Table> table(raw_table);
  std::unique_ptr<leveldb::Iterator> it(table->NewIterator(leveldb::ReadOptions()));
  std::vector<std::string> keys;
  for (it->SeekToFirst(); it->Valid(); it->Next()) keys.push_back(it->key().ToString());
  EXPECT_TRUE(it->status().ok());
  return keys;
}

std::vector<std::string> Keys(size_t n, const char* format = "key%07d") {
  std::vector<std::string> keys;
  for (size_t i = 0; i < n; ++i) keys.push_back(absl::StrFormat(format, i * 7));
  return keys;
}

// ---- Real tables: (policy, snappy, block size) ----

class LevelDbTableTest
    : public ::testing::TestWithParam<std::tuple<testing::LdbWriter, bool, size_t>> {
 protected:
  void SetUp() override {
    config_.filter = std::get<0>(GetParam()).filter;
    config_.encoding = std::get<0>(GetParam()).encoding;
    config_.snappy = std::get<1>(GetParam());
    config_.block_size = std::get<2>(GetParam());
    keys_ = Keys(5000);
    path_ = testing::WriteLdbTable(dir_.path() + "/db", keys_, config_);
    bytes_ = testing::ReadFileBytes(path_);
  }
  testing::TempDir dir_;
  LdbConfig config_;
  std::vector<std::string> keys_;
  std::string path_;
  std::string bytes_;
};

// The independent reference: group libleveldb's keys by the filter window
// of their block (block found by the parsed index), build each window's
// filter with the table's own policy, compare bytes.
TEST_P(LevelDbTableTest, FiltersAreTheOnesThePolicyBuildsPerWindow) {
  EXPECT_TRUE(IsLevelDbTable(*NewStringSstSource(bytes_)));
  absl::StatusOr<LevelDbTable> table = Parse(bytes_);
  ASSERT_TRUE(table.ok()) << table.status();
  const std::unique_ptr<const leveldb::FilterPolicy> policy = testing::NewLdbPolicy(config_);
  EXPECT_EQ(table->filter_policy, policy->Name());
  ASSERT_TRUE(table->filter.has_value());
  const LevelDbFilterBlock& filter = *table->filter;
  EXPECT_EQ(filter.base_lg, 11);
  EXPECT_GT(table->index.size(), 10u);

  std::map<uint64_t, std::vector<std::string>> user_keys_by_window;
  size_t block = 0;
  for (const std::string& key : InternalKeysOf(path_)) {
    while (CompareInternalKeys(key, table->index[block].key) > 0) ++block;
    ASSERT_LT(block, table->index.size());
    user_keys_by_window[filter.FilterIndexOf(table->index[block].handle.offset)].emplace_back(
        UserKeyOf(key));
  }
  EXPECT_EQ(block + 1, table->index.size());  // The last key is in the last block.
  size_t windows_with_keys = 0;
  for (size_t f = 0; f < filter.num_filters(); ++f) {
    std::string expected;
    const auto it = user_keys_by_window.find(f);
    if (it != user_keys_by_window.end()) {
      std::vector<leveldb::Slice> slices(it->second.begin(), it->second.end());
      policy->CreateFilter(slices.data(), static_cast<int>(slices.size()), &expected);
      ++windows_with_keys;
    }
    EXPECT_EQ(filter.filter(f), expected) << "filter " << f;
  }
  EXPECT_EQ(windows_with_keys, user_keys_by_window.size());
  // Small blocks share windows: fewer filters in use than blocks.
  if (config_.block_size < 2048) {
    EXPECT_LT(user_keys_by_window.size(), table->index.size());
  }
}

TEST_P(LevelDbTableTest, EveryKeyFindsItsBlockAndMayMatchThere) {
  absl::StatusOr<LevelDbTable> table = Parse(bytes_);
  ASSERT_TRUE(table.ok()) << table.status();
  const std::unique_ptr<const leveldb::FilterPolicy> policy = testing::NewLdbPolicy(config_);
  for (const std::string& key : keys_) {
    // The first candidate is the block Get reads; a second one only when
    // the first one's index key is the key itself.
    const std::vector<size_t> blocks = CandidateBlocks(*table, key);
    ASSERT_GE(blocks.size(), 1u) << key;
    ASSERT_LE(blocks.size(), 2u) << key;
    if (blocks.size() == 2) {
      EXPECT_EQ(UserKeyOf(table->index[blocks[0]].key), key);
    }
    const std::string_view bytes =
        table->filter->filter(table->filter->FilterIndexOf(table->index[blocks[0]].handle.offset));
    EXPECT_TRUE(policy->KeyMayMatch(key, leveldb::Slice(bytes.data(), bytes.size()))) << key;
  }
  EXPECT_TRUE(CandidateBlocks(*table, "zzz").empty());  // After the last key.
  EXPECT_EQ(CandidateBlocks(*table, ""), std::vector<size_t>{0});
}

INSTANTIATE_TEST_SUITE_P(
    Tables, LevelDbTableTest,
    ::testing::Combine(::testing::ValuesIn(testing::AllLdbWriters()), ::testing::Bool(),
                       ::testing::Values(size_t{4096}, size_t{512})),
    [](const auto& info) {
      return absl::StrFormat("%s_%s_block%d", std::get<0>(info.param).name,
                             std::get<1>(info.param) ? "snappy" : "raw", std::get<2>(info.param));
    });

// With Snappy, LevelDB compresses the index block too; the parser reads it.
TEST(LevelDbTableIndex, SnappyIndexBlockIsRead) {
  testing::TempDir dir;
  LdbConfig config;
  const std::string path = testing::WriteLdbTable(dir.path() + "/db", Keys(20000), config);
  absl::StatusOr<LevelDbTable> table = Parse(testing::ReadFileBytes(path));
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->index_compression, 1);
}

// A key with many versions spans blocks: every block holding one is a
// candidate, and the lookup of the next key starts after them.
TEST(LevelDbTableIndex, VersionsStraddlingBlocksAreAllCandidates) {
  testing::TempDir dir;
  LdbConfig config;
  config.versions = 60;
  config.value_size = 100;
  config.block_size = 1024;
  const std::string path =
      testing::WriteLdbTable(dir.path() + "/db", {"a", "hot", "z"}, config);
  absl::StatusOr<LevelDbTable> table = Parse(testing::ReadFileBytes(path));
  ASSERT_TRUE(table.ok()) << table.status();
  // 60 versions of ~110 bytes: each key fills several 1 KB blocks.
  const std::vector<size_t> hot = CandidateBlocks(*table, "hot");
  EXPECT_GE(hot.size(), 5u);
  size_t blocks_with_hot = 0;
  for (const IndexEntry& e : table->index) blocks_with_hot += UserKeyOf(e.key) == "hot";
  EXPECT_EQ(hot.size(), blocks_with_hot + 1);  // + the block where "hot" ends.
  EXPECT_EQ(CandidateBlocks(*table, "hz").front(), hot.back());
}

// A file of one metaindex block with one entry, name -> (0, 0), and a
// legacy footer pointing at it (as metaindex and index).
std::string LegacyTableWithMetaEntry(const std::string& name) {
  std::string block;
  block.push_back(0);                               // shared
  block.push_back(static_cast<char>(name.size()));  // non_shared
  block.push_back(2);                               // value length
  block += name;
  block += std::string(2, '\0');  // Handle (0, 0).
  block += std::string("\0\0\0\0\1\0\0\0", 8);  // One restart at 0; count 1.
  std::string file = block + std::string(5, '\0');  // Trailer: no compression.
  std::string footer;
  for (int i = 0; i < 2; ++i) {  // Two handles: offset 0, size block.size().
    footer.push_back(0);
    footer.push_back(static_cast<char>(block.size()));
  }
  footer.resize(40, '\0');
  for (int i = 0; i < 8; ++i) {
    footer.push_back(static_cast<char>(kLegacyBlockBasedTableMagic >> (8 * i)));
  }
  return file + footer;
}

TEST(LevelDbTableDetect, ToldFromRocksDbTables) {
  // RocksDB's legacy footer (format_version 0) on a table that has, as all
  // RocksDB tables do, a properties block.
  EXPECT_FALSE(IsLevelDbTable(*NewStringSstSource(LegacyTableWithMetaEntry("rocksdb.properties"))));
  EXPECT_TRUE(IsLevelDbTable(*NewStringSstSource(LegacyTableWithMetaEntry("filter.x"))));
  // A RocksDB table of today's default format.
  testing::TempDir dir;
  const std::string path = dir.path() + "/f.sst";
  testing::WriteSst(path, Keys(100), testing::SstConfig{});
  EXPECT_FALSE(IsLevelDbTable(*NewStringSstSource(testing::ReadFileBytes(path))));
}

TEST(LevelDbTableNoFilter, TableWithoutFilterHasNone) {
  testing::TempDir dir;
  LdbConfig config;
  config.filter = LdbFilter::kNone;
  const std::string path = testing::WriteLdbTable(dir.path() + "/db", Keys(1000), config);
  absl::StatusOr<LevelDbTable> table = Parse(testing::ReadFileBytes(path));
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_TRUE(table->filter_policy.empty());
  EXPECT_FALSE(table->filter.has_value());
  EXPECT_FALSE(table->index.empty());
}

// ---- Hand-built filter blocks ----

std::string Fixed32(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>(v >> (8 * i));
  return s;
}

// filters, then the given offsets, array start, lg.
std::string FilterBlock(const std::string& filters, const std::vector<uint32_t>& offsets,
                        uint32_t array_start, int lg) {
  std::string block = filters;
  for (uint32_t o : offsets) block += Fixed32(o);
  block += Fixed32(array_start);
  block.push_back(static_cast<char>(lg));
  return block;
}

TEST(LevelDbFilterBlockParse, WellFormed) {
  absl::StatusOr<LevelDbFilterBlock> b = ParseLevelDbFilterBlock(
      FilterBlock("aaabbbbc", {0, 3, 3, 7}, 8, 11));
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_EQ(b->num_filters(), 4u);
  EXPECT_EQ(b->filter(0), "aaa");
  EXPECT_EQ(b->filter(1), "");
  EXPECT_EQ(b->filter(2), "bbbb");
  EXPECT_EQ(b->filter(3), "c");
  EXPECT_EQ(b->FilterBytes(), 8u);
  EXPECT_EQ(b->FilterIndexOf(2047), 0u);
  EXPECT_EQ(b->FilterIndexOf(2048), 1u);
  absl::StatusOr<LevelDbFilterBlock> empty = ParseLevelDbFilterBlock(FilterBlock("", {}, 0, 11));
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->num_filters(), 0u);
}

TEST(LevelDbFilterBlockParse, DamageIsNamed) {
  const struct {
    std::string block;
    std::string message;
  } cases[] = {
      {"abcd", "too short"},
      {FilterBlock("aaa", {0}, 3, 33), "lg(base) 33 is out of range"},
      {FilterBlock("aaa", {0}, 9, 11), "past the 7 bytes"},
      {FilterBlock("aaa", {0}, 2, 11), "not a whole number of fixed32"},
      {FilterBlock("aaa", {1}, 3, 11), "filter 0 starts at 1"},
      {FilterBlock("aaabb", {0, 3, 2}, 5, 11), "filter 2 starts at 2, before filter 1"},
      {FilterBlock("aaa", {0, 4}, 3, 11), "filter 1 starts at 4, past the offset array"},
      {FilterBlock("aaa", {}, 3, 11), "no filter offsets"},
  };
  for (const auto& c : cases) {
    absl::StatusOr<LevelDbFilterBlock> b = ParseLevelDbFilterBlock(c.block);
    ASSERT_FALSE(b.ok()) << c.message;
    EXPECT_EQ(b.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_NE(b.status().message().find(c.message), std::string::npos)
        << b.status() << " vs " << c.message;
  }
}

// ---- Damaged tables ----

// The table with the filter block's byte at `at` (from the block's start)
// set to value and the block's checksum recomputed, so that only the
// structure checks can catch it.
std::string WithFilterByte(const std::string& bytes, size_t at, char value, bool from_end) {
  const LevelDbTable table = Parse(bytes).value();
  const BlockHandle h = table.filter_handle;
  std::string damaged = bytes;
  damaged[h.offset + (from_end ? h.size - 1 - at : at)] = value;
  const uint32_t crc = *BlockChecksum(1, std::string_view(damaged).substr(h.offset, h.size),
                                      damaged[h.offset + h.size]);
  for (int i = 0; i < 4; ++i) damaged[h.offset + h.size + 1 + i] = static_cast<char>(crc >> (8 * i));
  return damaged;
}

class LevelDbTableDamageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    LdbConfig config;
    path_ = testing::WriteLdbTable(dir_.path() + "/db", Keys(5000), config);
    bytes_ = testing::ReadFileBytes(path_);
    table_ = Parse(bytes_).value();
  }
  void ExpectDataLoss(const std::string& bytes, const std::string& message, bool verify = true) {
    absl::StatusOr<LevelDbTable> t = Parse(bytes, verify);
    ASSERT_FALSE(t.ok()) << message;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_NE(t.status().message().find(message), std::string::npos)
        << t.status() << " vs " << message;
  }
  testing::TempDir dir_;
  std::string path_;
  std::string bytes_;
  LevelDbTable table_;
};

TEST_F(LevelDbTableDamageTest, FilterBlockChecksum) {
  std::string damaged = bytes_;
  damaged[table_.filter_handle.offset + 3] ^= 1;
  ExpectDataLoss(damaged, "the filter block");
  ExpectDataLoss(damaged, "checksum mismatch");
  EXPECT_TRUE(Parse(damaged, /*verify=*/false).ok());  // Structure intact, bytes wrong.
}

TEST_F(LevelDbTableDamageTest, FilterBaseLgTooLargeOrSmall) {
  // lg 12: half the windows, so twice the filters the data needs.
  ExpectDataLoss(WithFilterByte(bytes_, 0, 12, /*from_end=*/true), "need at most");
  // lg 10: the last data blocks need filters past the end.
  ExpectDataLoss(WithFilterByte(bytes_, 0, 10, /*from_end=*/true), "needs filter");
  ExpectDataLoss(WithFilterByte(bytes_, 0, 64, /*from_end=*/true), "out of range");
}

TEST_F(LevelDbTableDamageTest, FilterOffsetArrayStart) {
  // The array start's high byte: far past the block.
  ExpectDataLoss(WithFilterByte(bytes_, 1, 0x40, /*from_end=*/true), "offset array starts at");
}

TEST_F(LevelDbTableDamageTest, CompressedFilterBlockIsRefused) {
  std::string damaged = bytes_;
  const BlockHandle h = table_.filter_handle;
  damaged[h.offset + h.size] = 1;  // Snappy, per the trailer.
  ExpectDataLoss(damaged, "LevelDB writes it raw", /*verify=*/false);
}

TEST_F(LevelDbTableDamageTest, IndexBlockSnappyCorruption) {
  ASSERT_EQ(table_.index_compression, 1);
  std::string damaged = bytes_;
  damaged[table_.footer.index.offset] = static_cast<char>(0xff);  // The length varint.
  ExpectDataLoss(damaged, "the index block");
  ExpectDataLoss(damaged, "Snappy data is corrupt", /*verify=*/false);
}

}  // namespace
}  // namespace sstfilter
