#include "inspect/sst_filter_block.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "inspect/block_entries.h"
#include "inspect/block_reader.h"

namespace sstfilter {

namespace {

absl::Status ReadPartitions(const SstSource& file, const SstIndexFormat& index_format,
                            bool verify_checksums, SstFilter* filter) {
  absl::StatusOr<std::string> index_block =
      ReadUncompressedBlock(file, filter->footer, filter->meta_handle,
                            "the filter partition index", verify_checksums);
  if (!index_block.ok()) return index_block.status();
  absl::StatusOr<std::vector<IndexEntry>> entries =
      ParseIndexBlock(*index_block, index_format.value_delta_encoded);
  if (!entries.ok()) {
    return absl::DataLossError(absl::StrFormat("filter partition index: %s",
                                               entries.status().message()));
  }
  if (entries->empty()) {
    return absl::DataLossError("filter partition index lists no partitions");
  }
  uint64_t next_free_offset = 0;
  for (size_t i = 0; i < entries->size(); ++i) {
    IndexEntry& entry = (*entries)[i];
    SstFilterPartition partition;
    partition.handle = entry.handle;
    partition.last_user_key = std::move(entry.key);
    if (!index_format.key_is_user_key) {
      if (partition.last_user_key.size() < kInternalKeyTrailer) {
        return absl::DataLossError(absl::StrFormat(
            "filter partition %d: index key of %d bytes is too short for an internal key",
            i, partition.last_user_key.size()));
      }
      partition.last_user_key.resize(partition.last_user_key.size() - kInternalKeyTrailer);
    }
    if (i > 0 && partition.last_user_key < filter->partitions.back().last_user_key) {
      return absl::DataLossError(absl::StrFormat(
          "filter partition %d: index keys are out of order", i));
    }
    // RocksDB writes partitions one after another; requiring that also bounds
    // the bytes a damaged index can make us read by the file size.
    if (partition.handle.offset < next_free_offset) {
      return absl::DataLossError(absl::StrFormat(
          "filter partition %d (offset %d) overlaps the previous partition", i,
          partition.handle.offset));
    }
    absl::StatusOr<std::string> contents = ReadUncompressedBlock(
        file, filter->footer, partition.handle, absl::StrFormat("filter partition %d", i),
        verify_checksums);
    if (!contents.ok()) return contents.status();
    partition.contents = *std::move(contents);
    next_free_offset = partition.handle.offset + partition.handle.size + kBlockTrailerSize;
    filter->partitions.push_back(std::move(partition));
  }
  return absl::OkStatus();
}

}  // namespace

size_t SstFilter::FilterBytes() const {
  size_t total = 0;
  for (const SstFilterPartition& p : partitions) total += p.contents.size();
  return total;
}

absl::StatusOr<SstFilter> ReadSstFilter(const SstSource& file,
                                        const SstIndexFormat& index_format,
                                        bool verify_checksums) {
  SstFilter filter;
  absl::StatusOr<SstFooter> footer = ReadSstFooter(file);
  if (!footer.ok()) return footer.status();
  filter.footer = *footer;
  absl::StatusOr<std::string> metaindex =
      ReadUncompressedBlock(file, filter.footer, filter.footer.metaindex, "the metaindex block",
                            verify_checksums);
  if (!metaindex.ok()) return metaindex.status();
  absl::StatusOr<std::vector<BlockEntry>> meta = ParseBlockEntries(*metaindex);
  if (!meta.ok()) {
    return absl::DataLossError(absl::StrFormat("metaindex block: %s", meta.status().message()));
  }
  for (const BlockEntry& entry : *meta) {
    struct {
      std::string_view prefix;
      SstFilterLayout layout;
    } const kLayouts[] = {{kFullFilterPrefix, SstFilterLayout::kFull},
                          {kPartitionedFilterPrefix, SstFilterLayout::kPartitioned},
                          {kBlockBasedFilterPrefix, SstFilterLayout::kBlockBased}};
    for (const auto& [prefix, layout] : kLayouts) {
      if (entry.key.compare(0, prefix.size(), prefix) != 0) continue;
      if (filter.layout != SstFilterLayout::kNone) {
        return absl::DataLossError(absl::StrFormat(
            "metaindex names two filter blocks: '%s' and '%s'", filter.meta_block_name,
            entry.key));
      }
      filter.layout = layout;
      filter.meta_block_name = entry.key;
      filter.compatibility_name = entry.key.substr(prefix.size());
      std::string_view value = entry.value;
      if (!DecodeBlockHandle(&value, &filter.meta_handle) || !value.empty()) {
        return absl::DataLossError(absl::StrFormat(
            "metaindex entry '%s' does not hold a block handle", entry.key));
      }
    }
  }
  switch (filter.layout) {
    case SstFilterLayout::kNone:
    case SstFilterLayout::kBlockBased:
      return filter;
    case SstFilterLayout::kFull: {
      absl::StatusOr<std::string> contents =
          ReadUncompressedBlock(file, filter.footer, filter.meta_handle, "the filter block",
                                verify_checksums);
      if (!contents.ok()) return contents.status();
      filter.partitions.push_back({"", filter.meta_handle, *std::move(contents)});
      return filter;
    }
    case SstFilterLayout::kPartitioned: {
      absl::Status s = ReadPartitions(file, index_format, verify_checksums, &filter);
      if (!s.ok()) return s;
      return filter;
    }
  }
  return filter;
}

std::vector<size_t> CandidatePartitions(const SstFilter& filter,
                                        std::string_view user_key) {
  std::vector<size_t> result;
  const std::vector<SstFilterPartition>& parts = filter.partitions;
  if (parts.empty()) return result;
  if (filter.layout != SstFilterLayout::kPartitioned) {
    for (size_t i = 0; i < parts.size(); ++i) result.push_back(i);
    return result;
  }
  auto it = std::lower_bound(
      parts.begin(), parts.end(), user_key,
      [](const SstFilterPartition& p, std::string_view key) { return p.last_user_key < key; });
  size_t i = it == parts.end() ? parts.size() - 1 : static_cast<size_t>(it - parts.begin());
  result.push_back(i);
  while (i + 1 < parts.size() && parts[i].last_user_key == user_key) {
    result.push_back(++i);
  }
  return result;
}

}  // namespace sstfilter
