#include "inspect/sst_footer.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "inspect/block_checksum.h"
#include "inspect/block_entries.h"
#include "inspect/block_reader.h"
#include "inspect/coding.h"

namespace sstfilter {

namespace {

constexpr uint64_t kLegacyFooterSize = 48;  // 2 handles padded to 40 + magic.
constexpr uint64_t kFooterSize = 53;        // + checksum type and format_version.
constexpr uint64_t kPlainTableMagic = 0x8242229663bf9564ULL;
constexpr uint64_t kLegacyPlainTableMagic = 0x4f3418eb7a8f13b8ULL;
constexpr uint64_t kCuckooTableMagic = 0x926789d0c5f17873ULL;
constexpr uint8_t kMaxChecksumType = 4;  // kXXH3

// The newer footer's checksum type and format_version; `tail` is its 53
// bytes.
absl::Status DecodeVersionAndChecksumType(std::string_view tail, SstFooter* footer) {
  std::string_view version = tail.substr(kFooterSize - 12, 4);
  DecodeFixed32(&version, &footer->format_version);
  if (footer->format_version < 1 || footer->format_version > kMaxSupportedFormatVersion) {
    return absl::DataLossError(absl::StrFormat(
        "unsupported format_version %d in the footer (this reader knows 1..%d)",
        footer->format_version, kMaxSupportedFormatVersion));
  }
  footer->checksum_type = static_cast<uint8_t>(tail[0]);
  if (footer->checksum_type > kMaxChecksumType) {
    return absl::DataLossError(absl::StrFormat("unknown checksum type %d in the footer",
                                               footer->checksum_type));
  }
  return absl::OkStatus();
}

// Tells the footer's kind by its magic number. `tail` is the last
// min(file size, 53) bytes of a file of `file_size` bytes. Sets the
// footer's encoded size, format_version and checksum type, and *handles to
// its 40 bytes of handles (the format_version 6 fields in their place).
absl::Status DecodeFooterKind(std::string_view tail, uint64_t file_size, SstFooter* footer,
                         std::string_view* handles) {
  std::string_view magic_bytes = tail.substr(tail.size() - 8);
  uint64_t magic = 0;
  DecodeFixed64(&magic_bytes, &magic);
  if (magic == kLegacyBlockBasedTableMagic) {
    footer->encoded_size = kLegacyFooterSize;
    *handles = tail.substr(tail.size() - kLegacyFooterSize, 40);
    return absl::OkStatus();
  }
  if (magic == kBlockBasedTableMagic) {
    if (file_size < kFooterSize) {
      return absl::DataLossError(absl::StrFormat(
          "file of %d bytes is too short for a block-based table footer (%d bytes)",
          file_size, kFooterSize));
    }
    footer->encoded_size = kFooterSize;
    *handles = tail.substr(1, 40);
    return DecodeVersionAndChecksumType(tail, footer);
  }
  if (magic == kPlainTableMagic || magic == kLegacyPlainTableMagic) {
    return absl::DataLossError("a plain table, not a block-based table");
  }
  if (magic == kCuckooTableMagic) {
    return absl::DataLossError("a cuckoo table, not a block-based table");
  }
  return absl::DataLossError(absl::StrFormat(
      "no SST magic number at the end of the file (found 0x%016x)", magic));
}

// The format_version 6 footer checksum: over its 53 bytes (`tail`) with the
// checksum field zeroed, plus the context modifier of its offset.
absl::Status CheckFooterChecksum(std::string_view tail, uint64_t footer_offset,
                                 const SstFooter& footer, uint32_t base, uint32_t stored) {
  std::string zeroed(tail);
  std::fill_n(zeroed.begin() + 5, 4, '\0');  // The checksum field itself.
  const uint32_t computed =
      BlockChecksum(footer.checksum_type, std::string_view(zeroed).substr(0, 52), zeroed[52])
          .value_or(0) +
      ContextChecksumModifier(base, footer_offset);
  if (computed != stored) {
    return absl::DataLossError(absl::StrFormat(
        "footer checksum mismatch (stored 0x%08x, computed 0x%08x)", stored, computed));
  }
  return absl::OkStatus();
}

// Part 2 of a format_version 6 or 7 footer: `tail` is its 53 bytes, at
// `footer_offset` in the file. Sets the metaindex handle and the base
// context checksum.
absl::Status DecodeContextFooter(std::string_view tail, uint64_t footer_offset,
                                 SstFooter* footer) {
  constexpr std::string_view kExtendedMagic("\x3e\x00\x7a\x00", 4);
  std::string_view part2 = tail.substr(1, 40);
  if (part2.substr(0, 4) != kExtendedMagic) {
    return absl::DataLossError(absl::StrFormat(
        "format_version %d footer without its extended magic (found %s)",
        footer->format_version, absl::CHexEscape(absl::string_view(part2.data(), 4))));
  }
  part2.remove_prefix(4);
  uint32_t stored = 0, base = 0, metaindex_size = 0;
  DecodeFixed32(&part2, &stored);
  DecodeFixed32(&part2, &base);
  DecodeFixed32(&part2, &metaindex_size);
  if (base == 0) {
    return absl::DataLossError(absl::StrFormat(
        "format_version %d footer with base context checksum 0", footer->format_version));
  }
  if (absl::Status s = CheckFooterChecksum(tail, footer_offset, *footer, base, stored);
      !s.ok()) {
    return s;
  }
  part2.remove_prefix(16);  // Reserved, unchecked.
  uint64_t reserved = 0;
  DecodeFixed64(&part2, &reserved);
  if (reserved != 0) {
    return absl::DataLossError(
        "the footer's reserved bytes are set: a format feature this reader does not know");
  }
  if (uint64_t{metaindex_size} + kBlockTrailerSize > footer_offset) {
    return absl::DataLossError(absl::StrFormat(
        "footer's metaindex size %d does not fit before the footer at offset %d",
        metaindex_size, footer_offset));
  }
  footer->metaindex = {footer_offset - kBlockTrailerSize - metaindex_size, metaindex_size};
  footer->base_context_checksum = base;
  return absl::OkStatus();
}

// The handle of the metaindex entry kIndexMetaBlockName (format_version >= 6).
absl::StatusOr<BlockHandle> IndexHandleFromMetaindex(const SstSource& file,
                                                     const SstFooter& footer) {
  absl::StatusOr<std::string> block = ReadUncompressedBlock(
      file, footer, footer.metaindex, "the metaindex block", /*verify_checksum=*/true);
  if (!block.ok()) return block.status();
  absl::StatusOr<std::vector<BlockEntry>> entries = ParseBlockEntries(*block);
  if (!entries.ok()) {
    return absl::DataLossError(
        absl::StrFormat("the metaindex block: %s", entries.status().message()));
  }
  for (const BlockEntry& entry : *entries) {
    if (entry.key != kIndexMetaBlockName) continue;
    BlockHandle handle;
    std::string_view value = entry.value;
    if (!DecodeBlockHandle(&value, &handle) || !value.empty()) {
      return absl::DataLossError(absl::StrFormat(
          "metaindex entry '%s' does not hold a block handle", kIndexMetaBlockName));
    }
    return handle;
  }
  return absl::DataLossError(
      absl::StrFormat("format_version %d table whose metaindex has no '%s' entry",
                      footer.format_version, kIndexMetaBlockName));
}

absl::Status CheckInsideBlocks(const SstSource& file, const SstFooter& footer,
                               std::string_view name, const BlockHandle& h) {
  const uint64_t blocks_end = file.size() - footer.encoded_size;
  if (h.offset > blocks_end || h.size > blocks_end - h.offset ||
      kBlockTrailerSize > blocks_end - h.offset - h.size) {
    return absl::DataLossError(absl::StrFormat(
        "footer's %s handle (offset %d, size %d) points outside the %d-byte file", name,
        h.offset, h.size, file.size()));
  }
  return absl::OkStatus();
}

// The handles of a format_version 6 or 7 footer (`tail`, its 53 bytes):
// the metaindex from the footer, the index from the metaindex.
absl::Status ReadContextFooterHandles(const SstSource& file, std::string_view tail,
                                      SstFooter* footer) {
  if (absl::Status s = DecodeContextFooter(tail, file.size() - kFooterSize, footer); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckInsideBlocks(file, *footer, "metaindex", footer->metaindex);
      !s.ok()) {
    return s;
  }
  absl::StatusOr<BlockHandle> index = IndexHandleFromMetaindex(file, *footer);
  if (!index.ok()) return index.status();
  footer->index = *index;
  return CheckInsideBlocks(file, *footer, "index", footer->index);
}

// The two handles of a footer before format_version 6.
absl::Status DecodeFooterHandles(const SstSource& file, std::string_view handles,
                                 SstFooter* footer) {
  if (!DecodeBlockHandle(&handles, &footer->metaindex) ||
      !DecodeBlockHandle(&handles, &footer->index)) {
    return absl::DataLossError("footer block handles are malformed");
  }
  if (absl::Status s = CheckInsideBlocks(file, *footer, "metaindex", footer->metaindex);
      !s.ok()) {
    return s;
  }
  return CheckInsideBlocks(file, *footer, "index", footer->index);
}

}  // namespace

absl::StatusOr<SstFooter> ReadSstFooter(const SstSource& file) {
  const uint64_t size = file.size();
  if (size < kLegacyFooterSize) {
    return absl::DataLossError(absl::StrFormat(
        "file of %d bytes is too short to be an SST (the footer alone takes %d)",
        size, kLegacyFooterSize));
  }
  std::string scratch;
  const uint64_t tail_size = std::min(size, kFooterSize);
  absl::StatusOr<std::string_view> tail = file.Read(size - tail_size, tail_size, &scratch);
  if (!tail.ok()) return tail.status();
  SstFooter footer;
  std::string_view handles;
  if (absl::Status s = DecodeFooterKind(*tail, size, &footer, &handles); !s.ok()) return s;
  absl::Status s = footer.format_version >= 6 ? ReadContextFooterHandles(file, *tail, &footer)
                                              : DecodeFooterHandles(file, handles, &footer);
  if (!s.ok()) return s;
  return footer;
}

}  // namespace sstfilter
