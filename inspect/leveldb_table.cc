// In reading order, top to bottom: the footer (1), the metaindex and its
// filter entry (2), the index (3), the filter block (4), the data blocks a
// lookup reads (5). The filter of the data block at offset o is then
// LevelDbFilterBlock::filter(FilterIndexOf(o)) (leveldb_filter_block.h).
#include "inspect/leveldb_table.h"

#include <snappy.h>

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "inspect/block_entries.h"
#include "inspect/block_reader.h"
#include "inspect/coding.h"

namespace sstfilter {

namespace {

constexpr uint8_t kNoCompression = 0;
constexpr uint8_t kSnappyCompression = 1;

// Every block but the filter block goes through the table's compression:
// its contents, Snappy-decompressed if stored so.
absl::StatusOr<std::string> ReadBlockContents(const SstSource& file, const SstFooter& footer,
                                              const BlockHandle& handle, std::string_view what,
                                              bool verify_checksum,
                                              uint8_t* compression = nullptr) {
  absl::StatusOr<StoredBlock> block = ReadStoredBlock(file, footer, handle, what, verify_checksum);
  if (!block.ok()) return block.status();
  if (compression != nullptr) *compression = block->compression;
  if (block->compression == kNoCompression) return std::move(block->contents);
  if (block->compression != kSnappyCompression) {
    return absl::DataLossError(absl::StrFormat("%s (offset %d): unknown compression type %d",
                                               what, handle.offset, block->compression));
  }
  // Validating first bounds the allocation by what the stream really
  // produces, not by a damaged length prefix.
  const std::string& stored = block->contents;
  size_t length = 0;
  if (!snappy::IsValidCompressedBuffer(stored.data(), stored.size()) ||
      !snappy::GetUncompressedLength(stored.data(), stored.size(), &length)) {
    return absl::DataLossError(
        absl::StrFormat("%s (offset %d): Snappy data is corrupt", what, handle.offset));
  }
  std::string contents(length, '\0');
  if (!snappy::RawUncompress(stored.data(), stored.size(), contents.data())) {
    return absl::DataLossError(
        absl::StrFormat("%s (offset %d): Snappy data is corrupt", what, handle.offset));
  }
  return contents;
}

// 1. The footer: the legacy one, which RocksDB also writes at format_version 0.
absl::StatusOr<SstFooter> ReadLegacyFooter(const SstSource& file) {
  absl::StatusOr<SstFooter> footer = ReadSstFooter(file);
  if (!footer.ok()) return footer.status();
  if (footer->format_version != 0) {
    return absl::DataLossError("not a LevelDB table: the footer is a newer RocksDB footer");
  }
  return footer;
}

// 2. The metaindex, and in it the filter block's entry.
absl::StatusOr<std::vector<BlockEntry>> ReadMetaindex(const SstSource& file,
                                                      const SstFooter& footer,
                                                      bool verify_checksum) {
  absl::StatusOr<std::string> block =
      ReadBlockContents(file, footer, footer.metaindex, "the metaindex block", verify_checksum);
  if (!block.ok()) return block.status();
  absl::StatusOr<std::vector<BlockEntry>> entries = ParseBlockEntries(*block);
  if (!entries.ok()) {
    return absl::DataLossError("metaindex block: " + std::string(entries.status().message()));
  }
  return entries;
}

// Finds the "filter.<name>" entry; leaves table->filter_policy empty if none.
absl::Status FindFilterEntry(const std::vector<BlockEntry>& metaindex, LevelDbTable* table) {
  bool found = false;
  for (const BlockEntry& entry : metaindex) {
    if (entry.key.compare(0, kLevelDbFilterPrefix.size(), kLevelDbFilterPrefix) != 0) continue;
    if (found) {
      return absl::DataLossError(
          absl::StrFormat("metaindex names two filter blocks: 'filter.%s' and '%s'",
                          table->filter_policy, entry.key));
    }
    found = true;
    table->filter_policy = entry.key.substr(kLevelDbFilterPrefix.size());
    std::string_view value = entry.value;
    if (!DecodeBlockHandle(&value, &table->filter_handle) || !value.empty()) {
      return absl::DataLossError(absl::StrFormat(
          "metaindex entry '%s' does not hold a block handle", entry.key));
    }
    if (table->filter_policy.empty()) {
      return absl::DataLossError("metaindex entry 'filter.' names no filter policy");
    }
  }
  return absl::OkStatus();
}

// 3. The index. Its keys are internal keys in strictly ascending order; data
// blocks sit in file order, without overlap, before blocks_end (the first
// meta block).
absl::Status CheckIndex(const std::vector<IndexEntry>& index, uint64_t blocks_end) {
  uint64_t next_free = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    const IndexEntry& e = index[i];
    if (e.key.size() < kInternalKeyTrailer) {
      return absl::DataLossError(absl::StrFormat(
          "index entry %d: key of %d bytes is too short for an internal key", i, e.key.size()));
    }
    if (i > 0 && CompareInternalKeys(index[i - 1].key, e.key) >= 0) {
      return absl::DataLossError(absl::StrFormat("index entry %d: keys are out of order", i));
    }
    if (e.handle.offset < next_free || e.handle.offset > blocks_end ||
        e.handle.size > blocks_end - e.handle.offset ||
        kBlockTrailerSize > blocks_end - e.handle.offset - e.handle.size) {
      return absl::DataLossError(absl::StrFormat(
          "index entry %d: data block (offset %d, size %d) overlaps the previous block or "
          "lies past the data blocks' end (%d)",
          i, e.handle.offset, e.handle.size, blocks_end));
    }
    next_free = e.handle.offset + e.handle.size + kBlockTrailerSize;
  }
  return absl::OkStatus();
}

// Reads table->index; REQUIRES: the footer and filter entry are read.
absl::Status ReadIndex(const SstSource& file, bool verify_checksums, LevelDbTable* table) {
  absl::StatusOr<std::string> block =
      ReadBlockContents(file, table->footer, table->footer.index, "the index block",
                        verify_checksums, &table->index_compression);
  if (!block.ok()) return block.status();
  absl::StatusOr<std::vector<IndexEntry>> index =
      ParseIndexBlock(*block, /*value_delta_encoded=*/false);
  if (!index.ok()) {
    return absl::DataLossError("index block: " + std::string(index.status().message()));
  }
  table->index = *std::move(index);
  uint64_t blocks_end = std::min(table->footer.metaindex.offset, table->footer.index.offset);
  if (!table->filter_policy.empty()) {
    blocks_end = std::min(blocks_end, table->filter_handle.offset);
  }
  return CheckIndex(table->index, blocks_end);
}

// 4. The filter block. Every data block has a filter, and there are no more
// filters than LevelDB's builder makes: one per base window up to the end of
// the last data block (its trailer included), which may add one window.
absl::Status CheckFilterCoverage(const LevelDbFilterBlock& filter,
                                 const std::vector<IndexEntry>& index) {
  const uint64_t m = filter.num_filters();
  uint64_t data_end = 0;
  for (const IndexEntry& e : index) {
    if (filter.FilterIndexOf(e.handle.offset) >= m) {
      return absl::DataLossError(absl::StrFormat(
          "filter block: the data block at offset %d needs filter %d, but the block has %d "
          "filters (lg(base) %d)",
          e.handle.offset, filter.FilterIndexOf(e.handle.offset), m, filter.base_lg));
    }
    data_end = e.handle.offset + e.handle.size + kBlockTrailerSize;
  }
  const uint64_t most = index.empty() ? 1 : filter.FilterIndexOf(data_end) + 1;
  if (m > most) {
    return absl::DataLossError(absl::StrFormat(
        "filter block: %d filters, but %d bytes of data blocks need at most %d at lg(base) %d",
        m, data_end, most, filter.base_lg));
  }
  return absl::OkStatus();
}

// Reads table->filter; REQUIRES: the index is read.
absl::Status ReadFilterBlock(const SstSource& file, bool verify_checksums, LevelDbTable* table) {
  absl::StatusOr<StoredBlock> block = ReadStoredBlock(file, table->footer, table->filter_handle,
                                                      "the filter block", verify_checksums);
  if (!block.ok()) return block.status();
  if (block->compression != kNoCompression) {
    return absl::DataLossError(absl::StrFormat(
        "the filter block (offset %d) is compressed (type %d); LevelDB writes it raw",
        table->filter_handle.offset, block->compression));
  }
  absl::StatusOr<LevelDbFilterBlock> filter = ParseLevelDbFilterBlock(std::move(block->contents));
  if (!filter.ok()) return filter.status();
  if (absl::Status s = CheckFilterCoverage(*filter, table->index); !s.ok()) return s;
  table->filter = *std::move(filter);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<LevelDbTable> ReadLevelDbTable(const SstSource& file, bool verify_checksums) {
  LevelDbTable table;
  absl::StatusOr<SstFooter> footer = ReadLegacyFooter(file);
  if (!footer.ok()) return footer.status();
  table.footer = *footer;
  absl::StatusOr<std::vector<BlockEntry>> metaindex =
      ReadMetaindex(file, table.footer, verify_checksums);
  if (!metaindex.ok()) return metaindex.status();
  if (absl::Status s = FindFilterEntry(*metaindex, &table); !s.ok()) return s;
  if (absl::Status s = ReadIndex(file, verify_checksums, &table); !s.ok()) return s;
  if (table.filter_policy.empty()) return table;
  if (absl::Status s = ReadFilterBlock(file, verify_checksums, &table); !s.ok()) return s;
  return table;
}

bool IsLevelDbTable(const SstSource& file) {
  absl::StatusOr<SstFooter> footer = ReadLegacyFooter(file);
  if (!footer.ok()) return false;
  absl::StatusOr<std::vector<BlockEntry>> metaindex =
      ReadMetaindex(file, *footer, /*verify_checksum=*/false);
  if (!metaindex.ok()) return true;
  return std::none_of(metaindex->begin(), metaindex->end(),
                      [](const BlockEntry& e) { return e.key == kPropertiesMetaBlockName; });
}

// 5. The blocks a lookup reads, by internal key order.
std::vector<size_t> CandidateBlocks(const LevelDbTable& table, std::string_view user_key) {
  const std::vector<IndexEntry>& index = table.index;
  auto it = std::lower_bound(index.begin(), index.end(), user_key,
                             [](const IndexEntry& e, std::string_view key) {
                               return UserKeyOf(e.key) < key;
                             });
  std::vector<size_t> result;
  for (auto i = static_cast<size_t>(it - index.begin()); i < index.size(); ++i) {
    result.push_back(i);
    if (UserKeyOf(index[i].key) != user_key) break;
  }
  return result;
}

std::string_view UserKeyOf(std::string_view internal_key) {
  return internal_key.substr(0, internal_key.size() - kInternalKeyTrailer);
}

int CompareInternalKeys(std::string_view a, std::string_view b) {
  if (int c = UserKeyOf(a).compare(UserKeyOf(b)); c != 0) return c;
  std::string_view ta = a.substr(a.size() - kInternalKeyTrailer);
  std::string_view tb = b.substr(b.size() - kInternalKeyTrailer);
  uint64_t trailer_a = 0, trailer_b = 0;
  DecodeFixed64(&ta, &trailer_a);
  DecodeFixed64(&tb, &trailer_b);
  return trailer_a > trailer_b ? -1 : trailer_a < trailer_b ? 1 : 0;
}

}  // namespace sstfilter
