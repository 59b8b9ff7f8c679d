// Checksums and footers of SSTs: CRC-32C against published values and its
// definition, every checksum type RocksDB writes verified against its
// blocks at format_version 5, 6 and 7 (from 6 checksums depend on the
// block's offset), and damage to the footer of every format_version the linked
// RocksDB writes, each named.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "inspect/block_checksum.h"
#include "inspect/sst_filter_block.h"
#include "inspect/block_handle.h"
#include "inspect/coding.h"
#include "tests/db_test_util.h"
#include "tests/sst_test_util.h"

namespace sstfilter {
namespace {

using testing::ExpectDataLoss;
using testing::Parse;
using testing::SstConfig;

constexpr size_t kNumKeys = 3000;

// Damage to the footer of each format_version the linked RocksDB writes.
// Before 6 nothing checks the footer's bytes, so its handles are checked
// against the file; from 6 on (7 has the same footer) its checksum (with the offset's context), its
// extended magic and base context checksum are, and the index handle comes
// from the metaindex.
class SstFooterDamageTest : public ::testing::TestWithParam<int> {};

TEST_P(SstFooterDamageTest, FooterDamageIsNamed) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/f.sst";
  SstConfig config;
  config.format_version = GetParam();
  testing::WriteSst(path, testing::RandomKeys(500, 3), config);
  const std::string good = testing::ReadFileBytes(path);
  absl::StatusOr<SstFilter> filter = Parse(good, testing::IndexFormatOf(path));
  ASSERT_TRUE(filter.ok()) << filter.status();
  EXPECT_EQ(filter->footer.format_version, static_cast<uint32_t>(GetParam()));
  const size_t footer = good.size() - 53;
  std::string bad = good;
  if (GetParam() < 6) {
    bad[footer + 1] = '\xff';  // The metaindex offset, now past the file.
    ExpectDataLoss(bad, "footer's metaindex handle (offset");
    return;
  }
  EXPECT_NE(filter->footer.base_context_checksum, 0u);
  // The metaindex ends right before the footer, and the index it names is
  // where RocksDB's own reader finds it: every data block is behind it.
  EXPECT_EQ(filter->footer.metaindex.offset + filter->footer.metaindex.size + kBlockTrailerSize,
            footer);
  EXPECT_LT(filter->footer.index.offset, filter->footer.metaindex.offset);
  EXPECT_GT(filter->footer.index.size, 0u);

  bad[footer + 1] ^= 1;  // Extended magic.
  ExpectDataLoss(bad, "without its extended magic");
  for (size_t at : {size_t{5}, size_t{9}, size_t{13}, size_t{20}, size_t{40}}) {
    bad = good;  // Stored checksum, base, metaindex size, unchecked and checked padding.
    bad[footer + at] ^= 0x40;
    ExpectDataLoss(bad, "footer checksum mismatch");
  }
  // A footer moved to another offset fails its checksum too (the context).
  bad = std::string(16, '\0') + good;
  ExpectDataLoss(bad, "footer checksum mismatch");
  // With the checksum recomputed, the fields' own checks speak.
  auto resealed = [&](std::string bytes) {
    std::string zeroed = bytes.substr(footer, 53);
    std::fill_n(zeroed.begin() + 5, 4, '\0');
    uint32_t base = 0;
    std::string_view base_field = std::string_view(zeroed).substr(9, 4);
    DecodeFixed32(&base_field, &base);
    const uint32_t sum =
        BlockChecksum(filter->footer.checksum_type, std::string_view(zeroed).substr(0, 52),
                      zeroed[52]).value_or(0) +
        ContextChecksumModifier(base, footer);
    for (int i = 0; i < 4; ++i) bytes[footer + 5 + i] = static_cast<char>(sum >> (8 * i));
    return bytes;
  };
  ASSERT_TRUE(Parse(resealed(good), SstIndexFormat{}).ok());  // The reseal is faithful.
  bad = good;
  std::fill_n(bad.begin() + footer + 9, 4, '\0');
  ExpectDataLoss(resealed(bad), "base context checksum 0");
  bad = good;
  bad[footer + 34] = 1;
  ExpectDataLoss(resealed(bad), "reserved bytes are set");
  bad = good;
  bad[footer + 16] = '\x7f';  // Metaindex size over 2 GB.
  ExpectDataLoss(resealed(bad), "does not fit before the footer");
  bad = good;
  bad[footer + 13] ^= 8;  // Metaindex size off by 8: its checksum no longer matches.
  ExpectDataLoss(resealed(bad), "the metaindex block (offset");
}

INSTANTIATE_TEST_SUITE_P(WrittenVersions, SstFooterDamageTest,
                         ::testing::ValuesIn(testing::WritableFormatVersions()),
                         [](const auto& info) { return "V" + std::to_string(info.param); });

// ---- Block checksums ----

// CRC-32C bit by bit, straight from its definition (reflected polynomial
// 0x82f63b78, initial value and final xor ~0), as an independent reference.
uint32_t ReferenceCrc32c(const std::string& data) {
  uint32_t crc = ~0u;
  for (unsigned char byte : data) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 1) ? (crc >> 1) ^ 0x82f63b78u : crc >> 1;
  }
  return ~crc;
}

struct Crc32cVector {
  std::string data;
  uint32_t crc;
};

// Published CRC-32C values: the CRC catalogue's check value of "123456789"
// and the examples of RFC 3720 (iSCSI) appendix B.4.
std::vector<Crc32cVector> KnownCrc32cValues() {
  std::string zeros(32, '\0'), ones(32, '\xff'), up(32, '\0'), down(32, '\0');
  for (int i = 0; i < 32; ++i) {
    up[i] = static_cast<char>(i);
    down[i] = static_cast<char>(31 - i);
  }
  const unsigned char read10_pdu[48] = {  // An iSCSI SCSI Read (10) command PDU.
      0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
      0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x28, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
  return {{"123456789", 0xe3069283u},
          {"", 0u},
          {zeros, 0x8a9136aau},
          {ones, 0x62a8ab43u},
          {up, 0x46dd794eu},
          {down, 0x113fdb5cu},
          {std::string(reinterpret_cast<const char*>(read10_pdu), sizeof(read10_pdu)),
           0xd9963a56u}};
}

// Both implementations: Crc32c (the SSE4.2 instruction where the CPU has it)
// and the portable fallback, which an SSE4.2 machine otherwise never runs.
TEST(BlockChecksumTest, Crc32cKnownValuesBothPaths) {
  for (const Crc32cVector& v : KnownCrc32cValues()) {
    EXPECT_EQ(Crc32c(v.data), v.crc) << v.data.size() << " bytes";
    EXPECT_EQ(Crc32cPortable(v.data), v.crc) << v.data.size() << " bytes";
    for (size_t split = 0; split <= v.data.size(); ++split) {  // Continuation.
      const std::string_view head = std::string_view(v.data).substr(0, split);
      const std::string_view tail = std::string_view(v.data).substr(split);
      ASSERT_EQ(Crc32c(tail, Crc32c(head)), v.crc) << split;
      ASSERT_EQ(Crc32cPortable(tail, Crc32cPortable(head)), v.crc) << split;
    }
  }
}

TEST(BlockChecksumTest, Crc32cPortableMatchesTheHardwarePath) {
#if defined(__x86_64__)
  const bool has_sse42 = __builtin_cpu_supports("sse4.2");
#else
  const bool has_sse42 = false;
#endif
  if (!has_sse42) {
    GTEST_SKIP() << "no SSE4.2 here: Crc32c is the portable path itself (checked above)";
  }
  std::mt19937_64 rng(12);
  for (size_t n = 0; n < 600; ++n) {  // Every length mod 8, words and tails.
    std::string data(n, '\0');
    for (char& c : data) c = static_cast<char>(rng());
    const uint32_t seed = static_cast<uint32_t>(rng());
    ASSERT_EQ(Crc32cPortable(data), Crc32c(data)) << n;
    ASSERT_EQ(Crc32cPortable(data, seed), Crc32c(data, seed)) << n;
  }
}

TEST(BlockChecksumTest, Crc32cMatchesTheDefinition) {
  std::mt19937_64 rng(11);
  for (size_t n = 0; n < 300; ++n) {
    std::string data(n, '\0');
    for (char& c : data) c = static_cast<char>(rng());
    ASSERT_EQ(Crc32c(data), ReferenceCrc32c(data)) << n;
    ASSERT_EQ(Crc32cPortable(data), ReferenceCrc32c(data)) << n;
  }
  EXPECT_FALSE(BlockChecksum(0, "abc", 0).has_value());  // No checksum.
  EXPECT_FALSE(BlockChecksum(5, "abc", 0).has_value());  // Unknown to us.
}

// (checksum type, format_version): 5, and 6 and 7 where RocksDB writes
// them, whose checksums add a context modifier of the block's offset.
class SstChecksumTest
    : public ::testing::TestWithParam<std::tuple<rocksdb::ChecksumType, int>> {
 protected:
  rocksdb::ChecksumType type() const { return std::get<0>(GetParam()); }
  int format_version() const { return std::get<1>(GetParam()); }
};

TEST_P(SstChecksumTest, RocksDbChecksumsVerifyAndDamageIsCaught) {
  // Our checksums agree with RocksDB's for every block the filter reader
  // reads (metaindex, partition index, each partition); a flipped bit inside
  // a filter partition, which RocksDB's VerifyChecksum does not look at, is
  // DataLoss naming the partition instead of a filter with false negatives.
  testing::TempDir dir;
  const std::string path = dir.path() + "/c.sst";
  SstConfig config;
  config.partitioned = true;
  config.checksum = type();
  config.format_version = format_version();
  testing::WriteSst(path, testing::RandomKeys(kNumKeys, 4), config);
  const std::string good = testing::ReadFileBytes(path);
  const SstIndexFormat format = testing::IndexFormatOf(path);
  absl::StatusOr<SstFilter> filter = Parse(good, format);
  ASSERT_TRUE(filter.ok()) << filter.status();
  EXPECT_EQ(filter->footer.checksum_type, static_cast<uint8_t>(type()));
  EXPECT_EQ(filter->footer.format_version, static_cast<uint32_t>(format_version()));
  EXPECT_EQ(filter->footer.base_context_checksum != 0, format_version() >= 6);
  ASSERT_GT(filter->partitions.size(), 2u);

  const BlockHandle& partition = filter->partitions[1].handle;
  std::string bad = good;
  bad[partition.offset + partition.size / 2] ^= 0x10;
  absl::StatusOr<SstFilter> damaged = Parse(bad, format);
  if (type() == rocksdb::kNoChecksum) {
    EXPECT_TRUE(damaged.ok()) << damaged.status();  // Nothing to check against.
  } else {
    ASSERT_FALSE(damaged.ok());
    EXPECT_TRUE(absl::IsDataLoss(damaged.status()));
    EXPECT_NE(damaged.status().message().find("filter partition 1 (offset"), std::string::npos)
        << damaged.status();
    EXPECT_NE(damaged.status().message().find("block checksum mismatch"), std::string::npos)
        << damaged.status();
  }
  EXPECT_TRUE(Parse(bad, format, /*verify_checksums=*/false).ok());
}

std::vector<int> ChecksumFormatVersions() {
  std::vector<int> versions;
  for (int v : testing::WritableFormatVersions()) {
    if (v >= 5) versions.push_back(v);
  }
  return versions;
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, SstChecksumTest,
    ::testing::Combine(::testing::Values(rocksdb::kNoChecksum, rocksdb::kCRC32c, rocksdb::kxxHash,
                                         rocksdb::kxxHash64, rocksdb::kXXH3),
                       ::testing::ValuesIn(ChecksumFormatVersions())),
    [](const auto& info) {
      std::string name;
      switch (std::get<0>(info.param)) {
        case rocksdb::kNoChecksum: name = "None"; break;
        case rocksdb::kCRC32c: name = "Crc32c"; break;
        case rocksdb::kxxHash: name = "XxHash"; break;
        case rocksdb::kxxHash64: name = "XxHash64"; break;
        default: name = "Xxh3"; break;
      }
      return name + "V" + std::to_string(std::get<1>(info.param));
    });

}  // namespace
}  // namespace sstfilter
