// The table property "rocksdb.compression", which format_version 7 changed
// (RocksDB 10.4+: "<compression manager>;<types as hex>;"), decoded by the
// SST inspector (ParseCompressionName), and the index block compression
// types the inspector's structure check accepts because of it: built-in
// types before 7, exactly the listed ones (custom types of a compression
// manager included) from 7.
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "inspect/block_checksum.h"
#include "inspect/sst_filter_block.h"
#include "inspect/block_entries.h"
#include "inspect/block_handle.h"
#include "inspect/block_reader.h"
#include "inspect/compression_name.h"
#include "inspect/sst_footer.h"
#include "inspect/sst_structure.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/table_properties.h"
#include "snappy.h"
#include "tests/db_test_util.h"
#include "tests/sst_test_util.h"
#if ROCKSDB_MAJOR >= 11
#include "rocksdb/advanced_compression.h"
#endif

namespace sstfilter {
namespace {

using testing::SstConfig;

// ---- The property's value, as written at each format_version ----

TEST(CompressionNameTest, BeforeVersion7TheValueIsOneName) {
  for (uint32_t v : {2u, 5u, 6u}) {
    absl::StatusOr<CompressionName> c = ParseCompressionName("Snappy", v);
    ASSERT_TRUE(c.ok()) << c.status();
    EXPECT_FALSE(c->has_fields);
    EXPECT_EQ(c->ToString(), "Snappy");
    // A built-in type may be in the table, whatever the name says.
    for (uint8_t type : {0, 1, 4, 7, 0x40}) EXPECT_TRUE(c->AllowsBlockType(type)) << +type;
    for (uint8_t type : {8, 0x3f, 0x80, 0x8a, 0xff}) EXPECT_FALSE(c->AllowsBlockType(type)) << +type;
  }
  // Values with ';' are only names before 7 (RocksDB compares them whole).
  absl::StatusOr<CompressionName> c = ParseCompressionName("BuiltinV2;07;", 6);
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->has_fields);
  EXPECT_EQ(c->legacy_name, "BuiltinV2;07;");
  EXPECT_EQ(ParseCompressionName("", 5)->ToString(), "(not recorded)");
}

TEST(CompressionNameTest, Version7HasManagerAndTypes) {
  absl::StatusOr<CompressionName> c = ParseCompressionName("BuiltinV2;0107;", 7);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(c->has_fields);
  EXPECT_EQ(c->manager, "BuiltinV2");
  EXPECT_EQ(c->types, (std::vector<uint8_t>{0x01, 0x07}));
  EXPECT_EQ(c->ToString(), "Snappy, ZSTD (compression manager 'BuiltinV2')");
  EXPECT_TRUE(c->AllowsBlockType(0));
  EXPECT_TRUE(c->AllowsBlockType(1));
  EXPECT_TRUE(c->AllowsBlockType(7));
  EXPECT_FALSE(c->AllowsBlockType(4));  // Built in, but not in this table.

  // Compression off: no manager, no types; only uncompressed blocks.
  c = ParseCompressionName(";;", 7);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->manager, "");
  EXPECT_TRUE(c->types.empty());
  EXPECT_EQ(c->ToString(), "none");
  EXPECT_TRUE(c->AllowsBlockType(0));
  EXPECT_FALSE(c->AllowsBlockType(1));

  // A custom manager's types (0x80..0xfe), lower-case hex too (RocksDB's
  // parser takes both), and fields after the types, kept for future use.
  c = ParseCompressionName("Mine;8a7F;more;fields", 7);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->manager, "Mine");
  EXPECT_EQ(c->types, (std::vector<uint8_t>{0x8a, 0x7f}));
  EXPECT_EQ(c->ToString(), "Custom8A, Reserved7F (compression manager 'Mine')");
  EXPECT_TRUE(c->AllowsBlockType(0x8a));
  EXPECT_FALSE(c->AllowsBlockType(0x8b));
  EXPECT_FALSE(c->AllowsBlockType(1));
}

TEST(CompressionNameTest, MalformedVersion7ValuesAreDataLoss) {
  const std::pair<std::string, std::string> cases[] = {
      {"ZSTD", "no ';' after the compression manager's name"},
      {"BuiltinV2;07", "no ';' after the compression types"},
      {"BuiltinV2;7;", "odd number of hex digits"},
      {"BuiltinV2;0G;", "not two hex digits"},
      {"BuiltinV2;07 ;", "odd number of hex digits"},
      {"BuiltinV2;00;", "compression type 00 cannot be listed"},
      {"BuiltinV2;01FF;", "compression type FF cannot be listed"},
  };
  for (const auto& [value, fragment] : cases) {
    absl::StatusOr<CompressionName> c = ParseCompressionName(value, 7);
    ASSERT_FALSE(c.ok()) << value;
    EXPECT_TRUE(absl::IsDataLoss(c.status())) << c.status();
    EXPECT_NE(c.status().message().find(fragment), std::string::npos)
        << c.status() << " lacks '" << fragment << "'";
    EXPECT_NE(c.status().message().find("'rocksdb.compression'"), std::string::npos)
        << c.status();
  }
}

// ---- Tables written by the linked RocksDB ----

std::vector<std::string> DecimalKeys(size_t n) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < n; ++i) keys.push_back(absl::StrFormat("key%06d", i));
  return keys;
}

// The raw value of the compression property, read from the table's
// properties block with the inspector's own block reader.
std::optional<std::string> RawCompressionProperty(const std::string& table) {
  const auto source = NewStringSstSource(table);
  const SstFooter footer = ReadSstFooter(*source).value();
  const std::string metaindex =
      ReadUncompressedBlock(*source, footer, footer.metaindex, "metaindex", true).value();
  const std::vector<BlockEntry> meta = ParseBlockEntries(metaindex).value();
  for (const BlockEntry& e : meta) {
    if (e.key != kPropertiesMetaBlockName) continue;
    std::string_view value = e.value;
    BlockHandle h;
    EXPECT_TRUE(DecodeBlockHandle(&value, &h));
    const std::string block = ReadUncompressedBlock(*source, footer, h, "properties", true).value();
    const std::vector<BlockEntry> properties = ParseBlockEntries(block).value();
    for (const BlockEntry& p : properties) {
      if (p.key == kCompressionNameProperty) return p.value;
    }
  }
  return std::nullopt;
}

// The table with the compression type byte of its index block set to
// `type`, the block's checksum recomputed so that only the structure check
// can object.
std::string WithIndexCompressionType(std::string table, uint8_t type) {
  const SstFooter footer = ReadSstFooter(*NewStringSstSource(table)).value();
  const BlockHandle& h = footer.index;
  const std::optional<uint32_t> checksum = ExpectedBlockChecksum(
      footer, h.offset, std::string_view(table).substr(h.offset, h.size), static_cast<char>(type));
  table[h.offset + h.size] = static_cast<char>(type);
  for (int i = 0; i < 4; ++i) {
    table[h.offset + h.size + 1 + i] = static_cast<char>(checksum.value_or(0) >> (8 * i));
  }
  return table;
}

uint8_t IndexCompressionType(const std::string& table) {
  const SstFooter footer = ReadSstFooter(*NewStringSstSource(table)).value();
  return static_cast<uint8_t>(table[footer.index.offset + footer.index.size]);
}

absl::Status CheckStructure(const std::string& table) {
  const auto source = NewStringSstSource(table);
  absl::StatusOr<SstFooter> footer = ReadSstFooter(*source);
  if (!footer.ok()) return footer.status();
  return CheckTableStructure(*source, *footer, /*verify_checksums=*/true);
}

// Every format_version the linked RocksDB writes: the property the
// inspector reads from the properties block is the one RocksDB's reader
// reports, it decodes at that format_version, and the structure check
// accepts the table but an index block type the property does not allow.
class CompressionPropertyTest : public ::testing::TestWithParam<int> {};

TEST_P(CompressionPropertyTest, ReadAsRocksDbWroteIt) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/t.sst";
  SstConfig config;
  config.format_version = GetParam();
  config.compression = rocksdb::kNoCompression;
  testing::WriteSst(path, DecimalKeys(3000), config);
  const std::string table = testing::ReadFileBytes(path);

  rocksdb::SstFileReader reader{rocksdb::Options()};
  ASSERT_TRUE(reader.Open(path).ok());
  const std::string rocksdb_value = reader.GetTableProperties()->compression_name;
  const std::optional<std::string> ours = RawCompressionProperty(table);
  ASSERT_TRUE(ours.has_value());
  EXPECT_EQ(*ours, rocksdb_value);
  absl::StatusOr<CompressionName> c = ParseCompressionName(*ours, GetParam());
  ASSERT_TRUE(c.ok()) << c.status();
  if (GetParam() >= 7) {
    EXPECT_EQ(*ours, ";;");  // Compression off: no manager, no types.
    EXPECT_TRUE(c->has_fields);
    EXPECT_EQ(c->ToString(), "none");
  } else {
    EXPECT_EQ(*ours, "NoCompression");
    EXPECT_FALSE(c->has_fields);
  }

  ASSERT_EQ(IndexCompressionType(table), 0);
  ASSERT_TRUE(CheckStructure(table).ok()) << CheckStructure(table);
  // ZSTD (7) is a built-in type, allowed before 7 whatever the name says;
  // from 7 it must be listed, and ";;" lists nothing.
  const absl::Status zstd = CheckStructure(WithIndexCompressionType(table, 7));
  if (GetParam() >= 7) {
    EXPECT_TRUE(absl::IsDataLoss(zstd)) << zstd;
    EXPECT_NE(zstd.message().find("has compression type 7, not one of the table's (none)"),
              std::string::npos)
        << zstd;
  } else {
    EXPECT_TRUE(zstd.ok()) << zstd;
  }
  const absl::Status custom = CheckStructure(WithIndexCompressionType(table, 0x8a));
  EXPECT_TRUE(absl::IsDataLoss(custom)) << custom;
  EXPECT_NE(custom.message().find("has compression type 138"), std::string::npos) << custom;
}

INSTANTIATE_TEST_SUITE_P(WrittenVersions, CompressionPropertyTest,
                         ::testing::ValuesIn(testing::WritableFormatVersions()),
                         [](const auto& info) { return "V" + std::to_string(info.param); });

#if ROCKSDB_MAJOR >= 11
// A compression manager of RocksDB 11's API (experimental; its
// format_version 7 tables record its name and custom types) compressing
// with Snappy under the custom type 0x8A: what a table written with a
// user's own compression looks like.
constexpr auto kSnappy8A = static_cast<rocksdb::CompressionType>(0x8a);
constexpr char kManagerName[] = "SstfilterTestSnappy8A";

class Snappy8ACompressor : public rocksdb::Compressor {
 public:
  const char* Name() const override { return kManagerName; }
  std::unique_ptr<rocksdb::Compressor> Clone() const override {
    return std::make_unique<Snappy8ACompressor>();
  }
  rocksdb::Status CompressBlock(rocksdb::Slice in, char* out, size_t* out_size,
                                rocksdb::CompressionType* type,
                                ManagedWorkingArea* /*working_area*/) override {
    std::string compressed;
    snappy::Compress(in.data(), in.size(), &compressed);
    if (compressed.size() > *out_size) {  // Not worth it: stored uncompressed.
      *type = rocksdb::kNoCompression;
      return rocksdb::Status::OK();
    }
    std::memcpy(out, compressed.data(), compressed.size());
    *out_size = compressed.size();
    *type = kSnappy8A;
    return rocksdb::Status::OK();
  }
};

class Snappy8ADecompressor : public rocksdb::Decompressor {
 public:
  const char* Name() const override { return kManagerName; }
  rocksdb::Status ExtractUncompressedSize(Args& args) override {
    size_t n = 0;
    if (args.compression_type != kSnappy8A ||
        !snappy::GetUncompressedLength(args.compressed_data.data(), args.compressed_data.size(),
                                       &n)) {
      return rocksdb::Status::Corruption("not a Snappy8A block");
    }
    args.uncompressed_size = n;
    return rocksdb::Status::OK();
  }
  rocksdb::Status DecompressBlock(const Args& args, char* out) override {
    return snappy::RawUncompress(args.compressed_data.data(), args.compressed_data.size(), out)
               ? rocksdb::Status::OK()
               : rocksdb::Status::Corruption("bad Snappy8A block");
  }
};

class Snappy8AManager : public rocksdb::CompressionManager {
 public:
  const char* Name() const override { return kManagerName; }
  const char* CompatibilityName() const override { return kManagerName; }
  bool SupportsCompressionType(rocksdb::CompressionType type) const override {
    return type == rocksdb::kNoCompression || type == kSnappy8A;
  }
  std::unique_ptr<rocksdb::Compressor> GetCompressor(const rocksdb::CompressionOptions&,
                                                     rocksdb::CompressionType type) override {
    if (type == rocksdb::kNoCompression) return nullptr;
    return std::make_unique<Snappy8ACompressor>();
  }
  std::shared_ptr<rocksdb::Decompressor> GetDecompressor() override { return decompressor_; }

 private:
  std::shared_ptr<rocksdb::Decompressor> decompressor_ = std::make_shared<Snappy8ADecompressor>();
};

TEST(CustomCompressionTest, Version7TableWithACustomTypeIsRead) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/custom.sst";
  const auto manager = std::make_shared<Snappy8AManager>();
  SstConfig config;
  config.format_version = 7;
  config.partitioned = true;
  config.compression = kSnappy8A;
  config.adjust_options = [&](rocksdb::Options* options) {
    options->compression_manager = manager;
  };
  const std::vector<std::string> keys = DecimalKeys(3000);
  testing::WriteSst(path, keys, config);
  const std::string table = testing::ReadFileBytes(path);

  // RocksDB reads it back with the manager, and says what it recorded.
  rocksdb::Options options;
  options.compression_manager = manager;
  rocksdb::SstFileReader reader(options);
  ASSERT_TRUE(reader.Open(path).ok());
  ASSERT_TRUE(reader.VerifyChecksum().ok());
  EXPECT_EQ(reader.GetTableProperties()->compression_name,
            absl::StrFormat("%s;8A;", kManagerName));

  // The inspector reads the same property itself, and lets the index block
  // carry the custom type it lists (the test means nothing unless it does).
  EXPECT_EQ(RawCompressionProperty(table), absl::StrFormat("%s;8A;", kManagerName));
  ASSERT_EQ(IndexCompressionType(table), 0x8a);
  const absl::Status structure = CheckStructure(table);
  EXPECT_TRUE(structure.ok()) << structure;
  SstIndexFormat format;  // testing::IndexFormatOf's reader has no manager.
  format.key_is_user_key = reader.GetTableProperties()->index_key_is_user_key != 0;
  format.value_delta_encoded = reader.GetTableProperties()->index_value_is_delta_encoded != 0;
  absl::StatusOr<SstFilter> filter = testing::Parse(table, format);
  ASSERT_TRUE(filter.ok()) << filter.status();
  EXPECT_EQ(filter->footer.format_version, 7u);
  EXPECT_GT(filter->partitions.size(), 2u);

  // Another custom type, or a built-in one, is not this table's.
  for (uint8_t type : {0x8b, 0x01}) {
    const absl::Status s = CheckStructure(WithIndexCompressionType(table, type));
    EXPECT_TRUE(absl::IsDataLoss(s)) << s;
    EXPECT_NE(s.message().find(absl::StrFormat(
                  "not one of the table's (Custom8A (compression manager '%s'))", kManagerName)),
              std::string::npos)
        << s;
  }
}
#endif  // ROCKSDB_MAJOR >= 11

}  // namespace
}  // namespace sstfilter
