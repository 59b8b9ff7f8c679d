// sstfilter_sst on tables damaged in ways their checksums do not cover:
// format_version <= 5 footers carry no checksum, so a footer handle can be
// pointed at another real, intact block, and a block's compression type byte
// can be changed with its checksum recomputed. RocksDB (whose build may keep
// assert() on, as Debian's does) trusts such fields; the tool must still end
// with exit 0 or 1 and a message, never a signal (abort, core dump). The
// child process the tool reads in (tools/child_guard.h) names how it ended.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "inspect/block_checksum.h"
#include "inspect/block_entries.h"
#include "inspect/block_handle.h"
#include "inspect/block_reader.h"
#include "inspect/sst_footer.h"
#include "tests/db_test_util.h"
#include "tests/sst_test_util.h"
#include "tests/tool_runner.h"
#include "tools/child_guard.h"

namespace sstfilter {
namespace {

using testing::SstConfig;

constexpr uint64_t kFooterSize = 53;      // format_version >= 1.
constexpr size_t kFooterHandlesSize = 40;  // After the checksum type byte.

void AppendVarint64(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// The table with its footer's metaindex and index handles replaced.
std::string WithFooterHandles(std::string table, const BlockHandle& metaindex,
                              const BlockHandle& index) {
  std::string handles;
  for (const BlockHandle& h : {metaindex, index}) {
    AppendVarint64(h.offset, &handles);
    AppendVarint64(h.size, &handles);
  }
  handles.resize(kFooterHandlesSize, '\0');
  table.replace(table.size() - kFooterSize + 1, kFooterHandlesSize, handles);
  return table;
}

// The table with the compression type byte of the block at `h` set to
// `type`, and its trailer checksum recomputed so that it still verifies.
std::string WithCompressionType(std::string table, uint8_t checksum_type, const BlockHandle& h,
                                uint8_t type) {
  const std::string_view contents(table.data() + h.offset, h.size);
  const uint32_t checksum = BlockChecksum(checksum_type, contents, static_cast<char>(type)).value();
  table[h.offset + h.size] = static_cast<char>(type);
  for (int i = 0; i < 4; ++i) {
    table[h.offset + h.size + 1 + i] = static_cast<char>(checksum >> (8 * i));
  }
  return table;
}

// Every block of the table our parser can find: the metaindex, the blocks it
// names, the index and, when it is not compressed, the blocks it names (data
// blocks, or index partitions of a two-level index).
std::vector<BlockHandle> AllBlocks(const std::string& table, const SstIndexFormat& format) {
  const auto source = NewStringSstSource(table);
  const SstFooter footer = ReadSstFooter(*source).value();
  std::vector<BlockHandle> blocks = {footer.metaindex, footer.index};
  const std::string metaindex =
      ReadUncompressedBlock(*source, footer, footer.metaindex, "metaindex", true).value();
  const absl::StatusOr<std::vector<BlockEntry>> meta_entries = ParseBlockEntries(metaindex);
  EXPECT_TRUE(meta_entries.ok()) << meta_entries.status();
  for (const BlockEntry& e : meta_entries.value_or(std::vector<BlockEntry>{})) {
    std::string_view value = e.value;
    BlockHandle h;
    EXPECT_TRUE(DecodeBlockHandle(&value, &h)) << e.key;
    blocks.push_back(h);
  }
  const absl::StatusOr<std::string> index =
      ReadUncompressedBlock(*source, footer, footer.index, "index", true);
  if (!index.ok()) return blocks;  // Compressed.
  const absl::StatusOr<std::vector<IndexEntry>> index_entries =
      ParseIndexBlock(*index, format.value_delta_encoded);
  EXPECT_TRUE(index_entries.ok()) << index_entries.status();
  for (const IndexEntry& e : index_entries.value_or(std::vector<IndexEntry>{})) {
    blocks.push_back(e.handle);
  }
  return blocks;
}

struct DamageCase {
  bool partitioned;
  bool compressed;  // Snappy data and index blocks (meta blocks never are).
};

class SstDamageTest : public ::testing::TestWithParam<DamageCase> {
 protected:
  void SetUp() override {
    SstConfig config;
    config.partitioned = GetParam().partitioned;
    config.compression = GetParam().compressed ? rocksdb::kSnappyCompression
                                               : rocksdb::kNoCompression;
    for (int i = 0; i < 3000; ++i) keys_.push_back(absl::StrFormat("key%06d", i));
    path_ = dir_.path() + "/good.sst";
    testing::WriteSst(path_, keys_, config);
    table_ = testing::ReadFileBytes(path_);
    footer_ = ReadSstFooter(*NewStringSstSource(table_)).value();
    blocks_ = AllBlocks(table_, testing::IndexFormatOf(path_));
  }

  // Runs the tool on `bytes` asking about a few present keys: it must exit 0
  // (then no present key is called absent) or 1 with a message naming the
  // file, and never die of a signal.
  void ExpectHandled(const std::string& bytes, const std::string& what) {
    const std::string path = dir_.path() + "/damaged.sst";
    testing::WriteFileBytes(path, bytes);
    const testing::ToolResult r =
        testing::RunTool(SSTFILTER_SST_BIN, {"--file", path, "--key", keys_[0], "--key",
                                             keys_[1500], "--key", keys_.back()});
    ++runs_;
    ASSERT_EQ(r.term_signal, 0) << what << ": killed by signal " << r.term_signal << "\n"
                                << r.output;
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << what << "\n" << r.output;
    if (r.exit_code == 1) {
      ++refused_;
      if (testing::Contains(r.output, "RocksDB stopped with")) ++stopped_rocksdb_;
      EXPECT_TRUE(testing::Contains(r.output, "sstfilter_sst: " + path + ": "))
          << what << "\n" << r.output;
    } else {
      EXPECT_FALSE(testing::Contains(r.output, "\": absent")) << what << "\n" << r.output;
    }
  }

  testing::TempDir dir_;
  std::vector<std::string> keys_;
  std::string path_;
  std::string table_;
  SstFooter footer_;
  std::vector<BlockHandle> blocks_;
  int runs_ = 0;
  int refused_ = 0;
  int stopped_rocksdb_ = 0;  // Refused only after RocksDB's reader died.

  void TearDown() override {
    std::printf("%d damaged tables: %d refused, %d of them after RocksDB's reader died\n",
                runs_, refused_, stopped_rocksdb_);
  }
};

// Each footer handle pointed at each other block of the table, in turn.
TEST_P(SstDamageTest, FooterHandlesRedirectedToOtherBlocks) {
  ASSERT_GE(blocks_.size(), GetParam().compressed ? 4u : 8u);
  for (const BlockHandle& target : blocks_) {
    if (!(target == footer_.index)) {
      ExpectHandled(WithFooterHandles(table_, footer_.metaindex, target),
                    absl::StrFormat("index -> block at %d", target.offset));
    }
    if (!(target == footer_.metaindex)) {
      ExpectHandled(WithFooterHandles(table_, target, footer_.index),
                    absl::StrFormat("metaindex -> block at %d", target.offset));
    }
  }
  EXPECT_GT(refused_, 0) << "no redirection was refused: the test did not damage anything";
}

// Each block's compression type byte set to every type RocksDB knows (and
// one it does not), its checksum fixed up.
TEST_P(SstDamageTest, CompressionTypeOfVerifiedBlocks) {
  for (const BlockHandle& block : blocks_) {
    for (uint8_t type : {1, 4, 7, 0x40}) {
      ExpectHandled(WithCompressionType(table_, footer_.checksum_type, block, type),
                    absl::StrFormat("block at %d, compression type %d", block.offset, type));
    }
  }
  EXPECT_GT(refused_, 0);
}

// The checks made before RocksDB sees the table name what is wrong.
TEST_P(SstDamageTest, MessagesNameTheDamage) {
  const auto source = NewStringSstSource(table_);
  const std::string metaindex =
      ReadUncompressedBlock(*source, footer_, footer_.metaindex, "metaindex", true).value();
  BlockHandle properties;
  for (const BlockEntry& e : ParseBlockEntries(metaindex).value_or(std::vector<BlockEntry>{})) {
    std::string_view value = e.value;
    if (e.key == "rocksdb.properties") {
      ASSERT_TRUE(DecodeBlockHandle(&value, &properties));
    }
  }
  ASSERT_GT(properties.size, 0u);
  const std::string path = dir_.path() + "/damaged.sst";
  testing::WriteFileBytes(path, WithFooterHandles(table_, footer_.metaindex, properties));
  testing::ToolResult r = testing::RunTool(SSTFILTER_SST_BIN, {"--file", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(testing::Contains(r.output, "damaged table: meta block 'rocksdb.properties' ("))
      << r.output;
  EXPECT_TRUE(testing::Contains(r.output, "overlap: a handle points at the wrong block"))
      << r.output;

  testing::WriteFileBytes(path, WithFooterHandles(table_, properties, footer_.index));
  r = testing::RunTool(SSTFILTER_SST_BIN, {"--file", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(testing::Contains(r.output, "the metaindex block names 'rocksdb.block.based"))
      << r.output;
  EXPECT_TRUE(testing::Contains(r.output, "not a meta block RocksDB knows")) << r.output;

  testing::WriteFileBytes(
      path, WithCompressionType(table_, footer_.checksum_type, properties, 1 /* Snappy */));
  r = testing::RunTool(SSTFILTER_SST_BIN, {"--file", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(testing::Contains(r.output, "meta block 'rocksdb.properties' (offset")) << r.output;
  EXPECT_TRUE(testing::Contains(r.output, "is compressed (type 1)")) << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, SstDamageTest,
    ::testing::Values(DamageCase{false, false}, DamageCase{true, false}, DamageCase{false, true},
                      DamageCase{true, true}),
    [](const auto& info) {
      return absl::StrFormat("%s_%s", info.param.partitioned ? "partitioned" : "full",
                             info.param.compressed ? "snappy" : "uncompressed");
    });

// The tool's reading child: its exit code passed on; an exception nothing
// caught named (out of memory told apart from damage), a SIGKILL named as
// the kernel's or a user's, other signals with the caller's explanation.
TEST(ChildGuardTest, PassesTheExitCodeOn) {
  const ChildOutcome outcome = RunInChild([] { return 3; });
  EXPECT_TRUE(outcome.error.empty()) << outcome.error;
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_EQ(outcome.term_signal, 0);
}

TEST(ChildGuardTest, NamesRunningOutOfMemory) {
  const ChildOutcome outcome = RunInChild([]() -> int { throw std::bad_alloc(); });
  EXPECT_EQ(outcome.term_signal, SIGABRT);
  EXPECT_EQ(outcome.uncaught, "std::bad_alloc");
  EXPECT_EQ(ChildDeath(outcome, "the table", "it is damaged"),
            "ran out of memory (std::bad_alloc) while reading the table");
}

TEST(ChildGuardTest, NamesAnyUncaughtException) {
  const ChildOutcome outcome =
      RunInChild([]() -> int { throw std::runtime_error("bad \x1b line"); });
  EXPECT_EQ(outcome.term_signal, SIGABRT);
  EXPECT_EQ(ChildDeath(outcome, "the DB's files", "unused"),
            "stopped on an exception nothing caught ('bad \\x1b line') while reading the "
            "DB's files");
}

TEST(ChildGuardTest, NamesAKill) {
  const ChildOutcome outcome = RunInChild([] { return raise(SIGKILL); });
  EXPECT_EQ(outcome.term_signal, SIGKILL);
  EXPECT_EQ(ChildDeath(outcome, "the table", "unused"),
            "was killed (SIGKILL: the kernel's out-of-memory killer, or a user) while reading "
            "the table");
}

TEST(ChildGuardTest, GivesTheReasonForAnAbort) {
  const ChildOutcome outcome = RunInChild([]() -> int { std::abort(); });
  EXPECT_EQ(outcome.term_signal, SIGABRT);
  EXPECT_TRUE(outcome.uncaught.empty()) << outcome.uncaught;
  EXPECT_EQ(ChildDeath(outcome, "the table", "it is damaged"),
            "RocksDB stopped with SIGABRT while reading the table: it is damaged");
}

}  // namespace
}  // namespace sstfilter
