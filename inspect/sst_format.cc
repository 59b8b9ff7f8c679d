#include "inspect/sst_format.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"
#include "inspect/block_checksum.h"

namespace sstfilter {

namespace {

constexpr uint64_t kLegacyFooterSize = 48;  // 2 handles padded to 40 + magic.
constexpr uint64_t kFooterSize = 53;        // + checksum type and format_version.
constexpr uint64_t kPlainTableMagic = 0x8242229663bf9564ULL;
constexpr uint64_t kLegacyPlainTableMagic = 0x4f3418eb7a8f13b8ULL;
constexpr uint64_t kCuckooTableMagic = 0x926789d0c5f17873ULL;
constexpr uint8_t kMaxChecksumType = 4;  // kXXH3

absl::Status DataLoss(std::string_view what) {
  return absl::DataLossError(std::string(what));
}

bool DecodeVarint(std::string_view* in, int max_bytes, uint64_t limit,
                  uint64_t* value) {
  uint64_t result = 0;
  for (int i = 0; i < max_bytes && static_cast<size_t>(i) < in->size(); ++i) {
    const uint64_t byte = static_cast<unsigned char>((*in)[i]);
    const int shift = 7 * i;
    // The last allowed byte may only carry the bits that still fit.
    if (shift > 0 && (byte & 0x7f) > (limit >> shift)) return false;
    result |= (byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      if (result > limit) return false;
      in->remove_prefix(i + 1);
      *value = result;
      return true;
    }
  }
  return false;  // Truncated, or longer than max_bytes.
}

// Offset of the entries' end, and the restart offsets, of a block.
struct BlockLayout {
  uint32_t entries_size = 0;
  std::vector<uint32_t> restarts;
};

absl::StatusOr<BlockLayout> SplitBlock(std::string_view block) {
  if (block.size() < 4) {
    return DataLoss(absl::StrFormat(
        "block of %d bytes is too small to hold its restart count", block.size()));
  }
  if (block.size() > UINT32_MAX) {
    return DataLoss(absl::StrFormat("block of %d bytes is larger than 4 GiB", block.size()));
  }
  std::string_view tail = block.substr(block.size() - 4);
  uint32_t packed = 0;
  DecodeFixed32(&tail, &packed);
  if (packed >> 31) {
    return DataLoss("block has a data-block hash index, which meta and index blocks never have");
  }
  const uint64_t num_restarts = packed;
  if (num_restarts == 0 || (num_restarts + 1) * 4 > block.size()) {
    return DataLoss(absl::StrFormat(
        "block of %d bytes claims %d restart points", block.size(), num_restarts));
  }
  BlockLayout layout;
  layout.entries_size = static_cast<uint32_t>(block.size() - (num_restarts + 1) * 4);
  std::string_view array = block.substr(layout.entries_size, num_restarts * 4);
  layout.restarts.resize(num_restarts);
  for (uint32_t& r : layout.restarts) DecodeFixed32(&array, &r);
  return layout;
}

// Walks the entries of a block. For each entry, calls
//   on_entry(const std::string& key, uint32_t shared, std::string_view* value)
// which must consume the entry's value from *value and return a status. With
// has_value_length, *value is exactly the value; without, it is the rest of
// the entries area and on_entry decides how much is value.
template <typename OnEntry>
absl::Status WalkEntries(std::string_view block, bool has_value_length,
                         OnEntry on_entry) {
  absl::StatusOr<BlockLayout> layout = SplitBlock(block);
  if (!layout.ok()) return layout.status();
  const std::string_view entries = block.substr(0, layout->entries_size);
  std::string_view in = entries;
  std::string key;
  std::vector<uint32_t> restartable;  // Offsets of entries with shared == 0.
  size_t index = 0;
  while (!in.empty()) {
    const auto offset = static_cast<uint32_t>(entries.size() - in.size());
    uint32_t shared = 0, non_shared = 0, value_length = 0;
    if (!DecodeVarint32(&in, &shared) || !DecodeVarint32(&in, &non_shared) ||
        (has_value_length && !DecodeVarint32(&in, &value_length))) {
      return DataLoss(absl::StrFormat(
          "entry %d at offset %d: truncated or bad length header", index, offset));
    }
    if (shared > key.size()) {
      return DataLoss(absl::StrFormat(
          "entry %d at offset %d shares %d bytes with a %d-byte previous key",
          index, offset, shared, key.size()));
    }
    if (non_shared > in.size() ||
        (has_value_length && value_length > in.size() - non_shared)) {
      return DataLoss(absl::StrFormat(
          "entry %d at offset %d: key or value runs past the end of the entries",
          index, offset));
    }
    if (shared == 0) restartable.push_back(offset);
    key.resize(shared);
    key.append(in.data(), non_shared);
    in.remove_prefix(non_shared);
    absl::Status s;
    if (has_value_length) {
      std::string_view value = in.substr(0, value_length);
      in.remove_prefix(value_length);
      s = on_entry(key, shared, &value);
    } else {
      s = on_entry(key, shared, &in);
    }
    if (!s.ok()) {
      return DataLoss(absl::StrFormat("entry %d at offset %d: %s", index, offset,
                                      s.message()));
    }
    ++index;
  }
  // RocksDB seeks by binary search over the restart points, so each must be
  // the start of an entry that stores its whole key.
  for (size_t i = 0; i < layout->restarts.size(); ++i) {
    const uint32_t r = layout->restarts[i];
    const bool empty_block_start = entries.empty() && r == 0;
    if (!empty_block_start &&
        !std::binary_search(restartable.begin(), restartable.end(), r)) {
      return DataLoss(absl::StrFormat(
          "restart point %d (offset %d) is not the start of an entry with a full key",
          i, r));
    }
  }
  return absl::OkStatus();
}

// A little-endian unsigned integer of sizeof(T) bytes.
template <typename T>
bool DecodeFixed(std::string_view* in, T* value) {
  if (in->size() < sizeof(T)) return false;
  T v = 0;
  for (size_t i = sizeof(T); i-- > 0;) v = (v << 8) | static_cast<unsigned char>((*in)[i]);
  in->remove_prefix(sizeof(T));
  *value = v;
  return true;
}

}  // namespace

bool DecodeVarint32(std::string_view* in, uint32_t* value) {
  uint64_t v = 0;
  if (!DecodeVarint(in, 5, UINT32_MAX, &v)) return false;
  *value = static_cast<uint32_t>(v);
  return true;
}

bool DecodeVarint64(std::string_view* in, uint64_t* value) {
  return DecodeVarint(in, 10, UINT64_MAX, value);
}

bool DecodeFixed32(std::string_view* in, uint32_t* value) { return DecodeFixed(in, value); }
bool DecodeFixed64(std::string_view* in, uint64_t* value) { return DecodeFixed(in, value); }

bool DecodeBlockHandle(std::string_view* in, BlockHandle* handle) {
  return DecodeVarint64(in, &handle->offset) && DecodeVarint64(in, &handle->size);
}

namespace {

// Part 2 of a format_version 6 or 7 footer: `tail` is its 53 bytes, at
// `footer_offset` in the file. Sets the metaindex handle and the base
// context checksum.
absl::Status DecodeContextFooter(std::string_view tail, uint64_t footer_offset,
                                 SstFooter* footer) {
  constexpr std::string_view kExtendedMagic("\x3e\x00\x7a\x00", 4);
  std::string_view part2 = tail.substr(1, 40);
  if (part2.substr(0, 4) != kExtendedMagic) {
    return DataLoss(absl::StrFormat("format_version %d footer without its extended magic (found %s)",
                                    footer->format_version,
                                    absl::CHexEscape(absl::string_view(part2.data(), 4))));
  }
  part2.remove_prefix(4);
  uint32_t stored = 0, base = 0, metaindex_size = 0;
  DecodeFixed32(&part2, &stored);
  DecodeFixed32(&part2, &base);
  DecodeFixed32(&part2, &metaindex_size);
  if (base == 0) {
    return DataLoss(absl::StrFormat("format_version %d footer with base context checksum 0",
                                    footer->format_version));
  }
  std::string zeroed(tail);
  std::fill_n(zeroed.begin() + 5, 4, '\0');  // The checksum field itself.
  const uint32_t computed =
      BlockChecksum(footer->checksum_type, std::string_view(zeroed).substr(0, 52), zeroed[52])
          .value_or(0) +
      ContextChecksumModifier(base, footer_offset);
  if (computed != stored) {
    return DataLoss(absl::StrFormat(
        "footer checksum mismatch (stored 0x%08x, computed 0x%08x)", stored, computed));
  }
  part2.remove_prefix(16);  // Reserved, unchecked.
  uint64_t reserved = 0;
  DecodeFixed64(&part2, &reserved);
  if (reserved != 0) {
    return DataLoss("the footer's reserved bytes are set: a format feature this reader does not know");
  }
  if (uint64_t{metaindex_size} + kBlockTrailerSize > footer_offset) {
    return DataLoss(absl::StrFormat(
        "footer's metaindex size %d does not fit before the footer at offset %d", metaindex_size,
        footer_offset));
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
    return DataLoss(absl::StrFormat("the metaindex block: %s", entries.status().message()));
  }
  for (const BlockEntry& entry : *entries) {
    if (entry.key != kIndexMetaBlockName) continue;
    BlockHandle handle;
    std::string_view value = entry.value;
    if (!DecodeBlockHandle(&value, &handle) || !value.empty()) {
      return DataLoss(absl::StrFormat("metaindex entry '%s' does not hold a block handle",
                                      kIndexMetaBlockName));
    }
    return handle;
  }
  return DataLoss(absl::StrFormat("format_version %d table whose metaindex has no '%s' entry",
                                  footer.format_version, kIndexMetaBlockName));
}

absl::Status CheckInsideBlocks(const SstSource& file, const SstFooter& footer,
                               std::string_view name, const BlockHandle& h) {
  const uint64_t blocks_end = file.size() - footer.encoded_size;
  if (h.offset > blocks_end || h.size > blocks_end - h.offset ||
      kBlockTrailerSize > blocks_end - h.offset - h.size) {
    return DataLoss(absl::StrFormat(
        "footer's %s handle (offset %d, size %d) points outside the %d-byte file", name,
        h.offset, h.size, file.size()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<SstFooter> ReadSstFooter(const SstSource& file) {
  const uint64_t size = file.size();
  if (size < kLegacyFooterSize) {
    return DataLoss(absl::StrFormat(
        "file of %d bytes is too short to be an SST (the footer alone takes %d)",
        size, kLegacyFooterSize));
  }
  std::string scratch;
  const uint64_t tail_size = std::min(size, kFooterSize);
  absl::StatusOr<std::string_view> tail = file.Read(size - tail_size, tail_size, &scratch);
  if (!tail.ok()) return tail.status();
  std::string_view magic_bytes = tail->substr(tail_size - 8);
  uint64_t magic = 0;
  DecodeFixed64(&magic_bytes, &magic);

  SstFooter footer;
  std::string_view handles;
  if (magic == kLegacyBlockBasedTableMagic) {
    footer.encoded_size = kLegacyFooterSize;
    handles = tail->substr(tail_size - kLegacyFooterSize, 40);
  } else if (magic == kBlockBasedTableMagic) {
    if (size < kFooterSize) {
      return DataLoss(absl::StrFormat(
          "file of %d bytes is too short for a block-based table footer (%d bytes)",
          size, kFooterSize));
    }
    footer.encoded_size = kFooterSize;
    std::string_view version = tail->substr(tail_size - 12, 4);
    DecodeFixed32(&version, &footer.format_version);
    if (footer.format_version < 1 || footer.format_version > kMaxSupportedFormatVersion) {
      return DataLoss(absl::StrFormat(
          "unsupported format_version %d in the footer (this reader knows 1..%d)",
          footer.format_version, kMaxSupportedFormatVersion));
    }
    footer.checksum_type = static_cast<uint8_t>((*tail)[0]);
    if (footer.checksum_type > kMaxChecksumType) {
      return DataLoss(absl::StrFormat("unknown checksum type %d in the footer",
                                      footer.checksum_type));
    }
    handles = tail->substr(1, 40);
  } else if (magic == kPlainTableMagic || magic == kLegacyPlainTableMagic) {
    return DataLoss("a plain table, not a block-based table");
  } else if (magic == kCuckooTableMagic) {
    return DataLoss("a cuckoo table, not a block-based table");
  } else {
    return DataLoss(absl::StrFormat(
        "no SST magic number at the end of the file (found 0x%016x)", magic));
  }
  if (footer.format_version >= 6) {
    if (absl::Status s = DecodeContextFooter(*tail, size - kFooterSize, &footer); !s.ok()) {
      return s;
    }
    if (absl::Status s = CheckInsideBlocks(file, footer, "metaindex", footer.metaindex); !s.ok()) {
      return s;
    }
    absl::StatusOr<BlockHandle> index = IndexHandleFromMetaindex(file, footer);
    if (!index.ok()) return index.status();
    footer.index = *index;
    if (absl::Status s = CheckInsideBlocks(file, footer, "index", footer.index); !s.ok()) return s;
    return footer;
  }
  if (!DecodeBlockHandle(&handles, &footer.metaindex) ||
      !DecodeBlockHandle(&handles, &footer.index)) {
    return DataLoss("footer block handles are malformed");
  }
  for (const auto& [name, h] : {std::pair<const char*, BlockHandle>{"metaindex", footer.metaindex},
                                {"index", footer.index}}) {
    if (absl::Status s = CheckInsideBlocks(file, footer, name, h); !s.ok()) return s;
  }
  return footer;
}

namespace {

// RocksDB's compression types (its CompressionType, a byte on disk).
constexpr uint8_t kNoCompressionType = 0x00;
constexpr uint8_t kLastBuiltinCompressionType = 0x07;  // ZSTD
constexpr uint8_t kZstdNotFinalType = 0x40;  // Read before format_version 7 only.
constexpr uint8_t kFirstCustomCompressionType = 0x80;
constexpr uint8_t kDisableCompressionOption = 0xff;  // Never a block's type.

std::string CompressionTypeName(uint8_t type) {
  static constexpr const char* kBuiltin[] = {"none", "Snappy", "Zlib", "BZip2",
                                             "LZ4",  "LZ4HC",  "Xpress", "ZSTD"};
  if (type <= kLastBuiltinCompressionType) return kBuiltin[type];
  return absl::StrFormat("%s%02X", type >= kFirstCustomCompressionType ? "Custom" : "Reserved",
                         type);
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

absl::StatusOr<CompressionName> ParseCompressionName(std::string_view value,
                                                     uint32_t format_version) {
  CompressionName result;
  if (format_version < 7) {
    result.legacy_name = std::string(value);
    return result;
  }
  auto bad = [&](std::string_view why) {
    return DataLoss(absl::StrFormat("table property '%s' = '%s' (format_version %d): %s",
                                    kCompressionNameProperty,
                                    absl::CHexEscape(absl::string_view(value.data(), value.size())),
                                    format_version, why));
  };
  const size_t name_end = value.find(';');
  if (name_end == std::string_view::npos) {
    return bad("no ';' after the compression manager's name");
  }
  result.has_fields = true;
  result.manager = std::string(value.substr(0, name_end));
  const std::string_view rest = value.substr(name_end + 1);
  const size_t types_end = rest.find(';');
  if (types_end == std::string_view::npos) return bad("no ';' after the compression types");
  const std::string_view hex = rest.substr(0, types_end);
  if (hex.size() % 2 != 0) return bad("an odd number of hex digits in the compression types");
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = HexDigit(hex[i]), low = HexDigit(hex[i + 1]);
    if (high < 0 || low < 0) return bad("a compression type that is not two hex digits");
    const auto type = static_cast<uint8_t>(high * 16 + low);
    if (type == kNoCompressionType || type == kDisableCompressionOption) {
      return bad(absl::StrFormat("compression type %02X cannot be listed", type));
    }
    result.types.push_back(type);
  }
  // Fields after the types are for future use; RocksDB ignores them.
  return result;
}

bool CompressionName::AllowsBlockType(uint8_t type) const {
  if (type == kNoCompressionType) return true;
  if (has_fields) return std::find(types.begin(), types.end(), type) != types.end();
  return type <= kLastBuiltinCompressionType || type == kZstdNotFinalType;
}

std::string CompressionName::ToString() const {
  if (!has_fields) return legacy_name.empty() ? "(not recorded)" : legacy_name;
  std::string out;
  for (uint8_t t : types) {
    if (!out.empty()) out += ", ";
    out += CompressionTypeName(t);
  }
  if (out.empty()) out = "none";
  if (!manager.empty()) absl::StrAppendFormat(&out, " (compression manager '%s')", manager);
  return out;
}

std::optional<uint32_t> ExpectedBlockChecksum(const SstFooter& footer, uint64_t offset,
                                              std::string_view block, char type_byte) {
  const std::optional<uint32_t> plain = BlockChecksum(footer.checksum_type, block, type_byte);
  if (!plain.has_value()) return std::nullopt;
  return *plain + ContextChecksumModifier(footer.base_context_checksum, offset);
}

absl::StatusOr<StoredBlock> ReadStoredBlock(const SstSource& file, const SstFooter& footer,
                                            const BlockHandle& handle, std::string_view what,
                                            bool verify_checksum) {
  const uint64_t blocks_end = file.size() - std::min(file.size(), footer.encoded_size);
  if (handle.offset > blocks_end || handle.size > blocks_end - handle.offset ||
      kBlockTrailerSize > blocks_end - handle.offset - handle.size) {
    return DataLoss(absl::StrFormat(
        "%s (offset %d, size %d) lies outside the table's %d bytes of blocks", what,
        handle.offset, handle.size, blocks_end));
  }
  std::string scratch;
  absl::StatusOr<std::string_view> bytes =
      file.Read(handle.offset, handle.size + kBlockTrailerSize, &scratch);
  if (!bytes.ok()) return bytes.status();
  if (verify_checksum) {
    const std::optional<uint32_t> computed = ExpectedBlockChecksum(
        footer, handle.offset, bytes->substr(0, handle.size), (*bytes)[handle.size]);
    std::string_view stored_field = bytes->substr(handle.size + 1);
    uint32_t stored = 0;
    DecodeFixed32(&stored_field, &stored);  // The trailer's 4 bytes are there.
    if (computed.has_value() && *computed != stored) {
      return DataLoss(absl::StrFormat(
          "%s (offset %d, size %d): block checksum mismatch (stored 0x%08x, computed 0x%08x)",
          what, handle.offset, handle.size, stored, *computed));
    }
  }
  StoredBlock block;
  block.compression = static_cast<uint8_t>((*bytes)[handle.size]);
  if (bytes->data() == scratch.data()) {  // Read into scratch: keep it, no second copy.
    scratch.resize(handle.size);
    block.contents = std::move(scratch);
  } else {
    block.contents = std::string(bytes->substr(0, handle.size));
  }
  return block;
}

absl::StatusOr<std::string> ReadUncompressedBlock(const SstSource& file,
                                                  const SstFooter& footer,
                                                  const BlockHandle& handle,
                                                  std::string_view what,
                                                  bool verify_checksum) {
  absl::StatusOr<StoredBlock> block =
      ReadStoredBlock(file, footer, handle, what, verify_checksum);
  if (!block.ok()) return block.status();
  if (block->compression != 0) {
    return DataLoss(absl::StrFormat(
        "%s (offset %d) is compressed (type %d); RocksDB writes it uncompressed",
        what, handle.offset, block->compression));
  }
  return std::move(block->contents);
}

absl::StatusOr<std::vector<BlockEntry>> ParseBlockEntries(std::string_view block) {
  std::vector<BlockEntry> result;
  absl::Status s = WalkEntries(
      block, /*has_value_length=*/true,
      [&](const std::string& key, uint32_t, std::string_view* value) {
        result.push_back({key, std::string(*value)});
        value->remove_prefix(value->size());
        return absl::OkStatus();
      });
  if (!s.ok()) return s;
  return result;
}

absl::StatusOr<std::vector<IndexEntry>> ParseIndexBlock(std::string_view block,
                                                        bool value_delta_encoded) {
  std::vector<IndexEntry> result;
  absl::Status s = WalkEntries(
      block, /*has_value_length=*/!value_delta_encoded,
      [&](const std::string& key, uint32_t shared, std::string_view* value) {
        BlockHandle handle;
        if (!value_delta_encoded || shared == 0) {
          if (!DecodeBlockHandle(value, &handle)) {
            return DataLoss("malformed block handle");
          }
          if (!value_delta_encoded && !value->empty()) {
            return DataLoss(absl::StrFormat(
                "%d unexpected bytes after the block handle", value->size()));
          }
        } else {
          // shared != 0 implies a previous entry (shared <= previous key size).
          const BlockHandle& prev = result.back().handle;
          uint64_t zigzag = 0;
          if (!DecodeVarint64(value, &zigzag)) {
            return DataLoss("malformed delta-encoded block size");
          }
          const auto delta = static_cast<int64_t>((zigzag >> 1) ^ (~(zigzag & 1) + 1));
          const uint64_t end = prev.offset + prev.size + kBlockTrailerSize;
          if (end < prev.offset ||
              (delta < 0 && static_cast<uint64_t>(-(delta + 1)) + 1 > prev.size) ||
              (delta > 0 && static_cast<uint64_t>(delta) > UINT64_MAX - prev.size)) {
            return DataLoss("delta-encoded block handle overflows");
          }
          handle.offset = end;
          handle.size = prev.size + static_cast<uint64_t>(delta);
        }
        result.push_back({key, handle});
        return absl::OkStatus();
      });
  if (!s.ok()) return s;
  return result;
}

}  // namespace sstfilter
