#include "inspect/sst_structure.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "inspect/block_entries.h"
#include "inspect/block_reader.h"
#include "inspect/coding.h"
#include "inspect/compression_name.h"
#include "inspect/sst_filter_block.h"

namespace sstfilter {

namespace {

struct NamedBlock {
  std::string name;
  BlockHandle handle;
  uint64_t end() const { return handle.offset + handle.size + kBlockTrailerSize; }
};

// The metaindex's entries as named block handles, each checked.
absl::StatusOr<std::vector<NamedBlock>> ReadMetaIndex(const SstSource& file,
                                                      const SstFooter& footer,
                                                      bool verify_checksums) {
  absl::StatusOr<std::string> block = ReadUncompressedBlock(
      file, footer, footer.metaindex, "the metaindex block", verify_checksums);
  if (!block.ok()) return block.status();
  absl::StatusOr<std::vector<BlockEntry>> entries = ParseBlockEntries(*block);
  if (!entries.ok()) {
    return absl::DataLossError(
        absl::StrFormat("the metaindex block: %s", entries.status().message()));
  }
  std::vector<NamedBlock> blocks;
  for (const BlockEntry& entry : *entries) {
    if (!IsKnownMetaBlockName(entry.key)) {
      return absl::DataLossError(absl::StrFormat(
          "the metaindex block names '%s', not a meta block RocksDB knows (is the "
          "footer's metaindex handle pointing at another block?)",
          absl::CHexEscape(entry.key)));
    }
    if (!blocks.empty() && entry.key <= blocks.back().name) {
      return absl::DataLossError(absl::StrFormat(
          "the metaindex block's keys are out of order ('%s' after '%s')", entry.key,
          blocks.back().name));
    }
    NamedBlock named{entry.key, {}};
    std::string_view value = entry.value;
    if (!DecodeBlockHandle(&value, &named.handle) || !value.empty()) {
      return absl::DataLossError(
          absl::StrFormat("metaindex entry '%s' does not hold a block handle", entry.key));
    }
    blocks.push_back(std::move(named));
  }
  return blocks;
}

// The table's compression property, from the properties block's entries.
absl::StatusOr<CompressionName> CompressionOf(std::string_view properties_block,
                                              const SstFooter& footer) {
  absl::StatusOr<std::vector<BlockEntry>> entries = ParseBlockEntries(properties_block);
  if (!entries.ok()) {
    return absl::DataLossError(absl::StrFormat("meta block '%s': %s", kPropertiesMetaBlockName,
                                               entries.status().message()));
  }
  for (const BlockEntry& entry : *entries) {
    if (entry.key == kCompressionNameProperty) {
      return ParseCompressionName(entry.value, footer.format_version);
    }
  }
  return CompressionName{};  // Not recorded: RocksDB's built-in types.
}

// The index block may be compressed: its trailer is read and, with
// verify_checksums, checked, but its contents are left to RocksDB. Its
// compression type must be one the table's compression property allows
// (RocksDB reads the table with decompressors for those types only).
absl::Status CheckIndexTrailer(const SstSource& file, const SstFooter& footer,
                               const CompressionName& compression, bool verify_checksums) {
  const BlockHandle& h = footer.index;
  std::string scratch;
  absl::StatusOr<std::string_view> bytes =
      file.Read(h.offset, h.size + kBlockTrailerSize, &scratch);
  if (!bytes.ok()) return bytes.status();
  const char type = (*bytes)[h.size];
  if (!compression.AllowsBlockType(static_cast<uint8_t>(type))) {
    return absl::DataLossError(absl::StrFormat(
        "the index block (offset %d) has compression type %d, not one of the table's (%s)",
        h.offset, static_cast<unsigned char>(type), compression.ToString()));
  }
  if (!verify_checksums) return absl::OkStatus();
  const std::optional<uint32_t> computed =
      ExpectedBlockChecksum(footer, h.offset, bytes->substr(0, h.size), type);
  std::string_view stored_field = bytes->substr(h.size + 1);
  uint32_t stored = 0;
  DecodeFixed32(&stored_field, &stored);
  if (computed.has_value() && *computed != stored) {
    return absl::DataLossError(absl::StrFormat(
        "the index block (offset %d, size %d): block checksum mismatch", h.offset, h.size));
  }
  return absl::OkStatus();
}

absl::Status CheckDisjoint(std::vector<NamedBlock> blocks) {
  std::sort(blocks.begin(), blocks.end(), [](const NamedBlock& a, const NamedBlock& b) {
    return a.handle.offset < b.handle.offset;
  });
  for (size_t i = 1; i < blocks.size(); ++i) {
    if (blocks[i].handle.offset < blocks[i - 1].end()) {
      return absl::DataLossError(absl::StrFormat(
          "%s (offset %d) and %s (offset %d) overlap: a handle points at the wrong block",
          blocks[i - 1].name, blocks[i - 1].handle.offset, blocks[i].name,
          blocks[i].handle.offset));
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool IsKnownMetaBlockName(std::string_view name) {
  for (std::string_view prefix :
       {kFullFilterPrefix, kPartitionedFilterPrefix, kBlockBasedFilterPrefix}) {
    if (name.substr(0, prefix.size()) == prefix) return true;
  }
  constexpr std::string_view kKnown[] = {
      kPropertiesMetaBlockName,     "rocksdb.stats" /* properties, old name */,
      "rocksdb.compression_dict",   "rocksdb.range_del",
      "rocksdb.hashindex.prefixes", "rocksdb.hashindex.metadata",
      kIndexMetaBlockName};
  for (std::string_view known : kKnown) {
    if (name == known) return true;
  }
  return false;
}

absl::Status CheckTableStructure(const SstSource& file, const SstFooter& footer,
                                 bool verify_checksums) {
  absl::StatusOr<std::vector<NamedBlock>> meta = ReadMetaIndex(file, footer, verify_checksums);
  if (!meta.ok()) return meta.status();
  std::vector<NamedBlock> all;
  CompressionName compression;
  for (const NamedBlock& block : *meta) {
    // The index (which may be compressed) is checked below; format_version
    // 6 names it in the metaindex, and ReadSstFooter took its handle there.
    if (block.name == kIndexMetaBlockName) {
      if (!(block.handle == footer.index)) {
        return absl::DataLossError(absl::StrFormat(
            "the metaindex's '%s' entry (offset %d) is not the footer's index (offset %d)",
            block.name, block.handle.offset, footer.index.offset));
      }
      continue;
    }
    absl::StatusOr<std::string> contents = ReadUncompressedBlock(
        file, footer, block.handle, absl::StrFormat("meta block '%s'", block.name),
        verify_checksums);
    if (!contents.ok()) return contents.status();
    if (block.name == kPropertiesMetaBlockName) {
      absl::StatusOr<CompressionName> c = CompressionOf(*contents, footer);
      if (!c.ok()) return c.status();
      compression = *std::move(c);
    }
    all.push_back({absl::StrFormat("meta block '%s'", block.name), block.handle});
  }
  if (absl::Status s = CheckIndexTrailer(file, footer, compression, verify_checksums); !s.ok()) {
    return s;
  }
  all.push_back({"the metaindex block", footer.metaindex});
  all.push_back({"the index block", footer.index});
  return CheckDisjoint(std::move(all));
}

}  // namespace sstfilter
