#include "inspect/block_entries.h"

#include <algorithm>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "inspect/coding.h"

namespace sstfilter {

namespace {

// Offset of the entries' end, and the restart offsets, of a block.
struct BlockLayout {
  uint32_t entries_size = 0;
  std::vector<uint32_t> restarts;
};

absl::StatusOr<BlockLayout> SplitBlock(std::string_view block) {
  if (block.size() < 4) {
    return absl::DataLossError(absl::StrFormat(
        "block of %d bytes is too small to hold its restart count", block.size()));
  }
  if (block.size() > UINT32_MAX) {
    return absl::DataLossError(
        absl::StrFormat("block of %d bytes is larger than 4 GiB", block.size()));
  }
  std::string_view tail = block.substr(block.size() - 4);
  uint32_t packed = 0;
  DecodeFixed32(&tail, &packed);
  if (packed >> 31) {
    return absl::DataLossError(
        "block has a data-block hash index, which meta and index blocks never have");
  }
  const uint64_t num_restarts = packed;
  if (num_restarts == 0 || (num_restarts + 1) * 4 > block.size()) {
    return absl::DataLossError(absl::StrFormat(
        "block of %d bytes claims %d restart points", block.size(), num_restarts));
  }
  BlockLayout layout;
  layout.entries_size = static_cast<uint32_t>(block.size() - (num_restarts + 1) * 4);
  std::string_view array = block.substr(layout.entries_size, num_restarts * 4);
  layout.restarts.resize(num_restarts);
  for (uint32_t& r : layout.restarts) DecodeFixed32(&array, &r);
  return layout;
}

// RocksDB seeks by binary search over the restart points, so each must be
// the start of an entry that stores its whole key. `restartable` holds the
// offsets of those entries, ascending.
absl::Status CheckRestarts(const BlockLayout& layout,
                           const std::vector<uint32_t>& restartable) {
  for (size_t i = 0; i < layout.restarts.size(); ++i) {
    const uint32_t r = layout.restarts[i];
    const bool empty_block_start = layout.entries_size == 0 && r == 0;
    if (!empty_block_start &&
        !std::binary_search(restartable.begin(), restartable.end(), r)) {
      return absl::DataLossError(absl::StrFormat(
          "restart point %d (offset %d) is not the start of an entry with a full key",
          i, r));
    }
  }
  return absl::OkStatus();
}

// The three lengths that start an entry.
struct EntryHeader {
  uint32_t shared = 0;
  uint32_t non_shared = 0;
  uint32_t value_length = 0;  // 0 without has_value_length.
};

// Consumes the header of entry `index` (at `offset`) from *in and checks it
// against the previous key's size and the bytes left in the entries area.
absl::StatusOr<EntryHeader> DecodeEntryHeader(std::string_view* in, size_t previous_key_size,
                                              bool has_value_length, size_t index,
                                              uint32_t offset) {
  EntryHeader h;
  if (!DecodeVarint32(in, &h.shared) || !DecodeVarint32(in, &h.non_shared) ||
      (has_value_length && !DecodeVarint32(in, &h.value_length))) {
    return absl::DataLossError(absl::StrFormat(
        "entry %d at offset %d: truncated or bad length header", index, offset));
  }
  if (h.shared > previous_key_size) {
    return absl::DataLossError(absl::StrFormat(
        "entry %d at offset %d shares %d bytes with a %d-byte previous key",
        index, offset, h.shared, previous_key_size));
  }
  if (h.non_shared > in->size() || h.value_length > in->size() - h.non_shared) {
    return absl::DataLossError(absl::StrFormat(
        "entry %d at offset %d: key or value runs past the end of the entries",
        index, offset));
  }
  return h;
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
  for (size_t index = 0; !in.empty(); ++index) {
    const auto offset = static_cast<uint32_t>(entries.size() - in.size());
    absl::StatusOr<EntryHeader> h =
        DecodeEntryHeader(&in, key.size(), has_value_length, index, offset);
    if (!h.ok()) return h.status();
    if (h->shared == 0) restartable.push_back(offset);
    key.resize(h->shared);
    key.append(in.data(), h->non_shared);
    in.remove_prefix(h->non_shared);
    std::string_view value = in.substr(0, h->value_length);
    in.remove_prefix(h->value_length);
    absl::Status s = on_entry(key, h->shared, has_value_length ? &value : &in);
    if (!s.ok()) {
      return absl::DataLossError(absl::StrFormat("entry %d at offset %d: %s", index, offset,
                                                 s.message()));
    }
  }
  return CheckRestarts(*layout, restartable);
}

// The handle a delta-encoded index value (a zigzag varint64 size delta)
// describes: it starts where `prev` and its trailer end.
absl::Status DecodeDeltaHandle(const BlockHandle& prev, std::string_view* value,
                               BlockHandle* handle) {
  uint64_t zigzag = 0;
  if (!DecodeVarint64(value, &zigzag)) {
    return absl::DataLossError("malformed delta-encoded block size");
  }
  const auto delta = static_cast<int64_t>((zigzag >> 1) ^ (~(zigzag & 1) + 1));
  const uint64_t end = prev.offset + prev.size + kBlockTrailerSize;
  if (end < prev.offset ||
      (delta < 0 && static_cast<uint64_t>(-(delta + 1)) + 1 > prev.size) ||
      (delta > 0 && static_cast<uint64_t>(delta) > UINT64_MAX - prev.size)) {
    return absl::DataLossError("delta-encoded block handle overflows");
  }
  handle->offset = end;
  handle->size = prev.size + static_cast<uint64_t>(delta);
  return absl::OkStatus();
}

// A full handle; without value delta encoding, the whole of the value.
absl::Status DecodeFullHandle(bool value_delta_encoded, std::string_view* value,
                              BlockHandle* handle) {
  if (!DecodeBlockHandle(value, handle)) {
    return absl::DataLossError("malformed block handle");
  }
  if (!value_delta_encoded && !value->empty()) {
    return absl::DataLossError(
        absl::StrFormat("%d unexpected bytes after the block handle", value->size()));
  }
  return absl::OkStatus();
}

}  // namespace

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
        // shared != 0 implies a previous entry (shared <= previous key size).
        absl::Status decoded = !value_delta_encoded || shared == 0
                                   ? DecodeFullHandle(value_delta_encoded, value, &handle)
                                   : DecodeDeltaHandle(result.back().handle, value, &handle);
        if (!decoded.ok()) return decoded;
        result.push_back({key, handle});
        return absl::OkStatus();
      });
  if (!s.ok()) return s;
  return result;
}

}  // namespace sstfilter
