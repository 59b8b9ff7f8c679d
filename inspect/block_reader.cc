#include "inspect/block_reader.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "inspect/block_checksum.h"
#include "inspect/coding.h"

namespace sstfilter {

namespace {

// `bytes` is the block at `handle` followed by its trailer.
absl::Status VerifyTrailerChecksum(const SstFooter& footer, const BlockHandle& handle,
                                   std::string_view bytes, std::string_view what) {
  const std::optional<uint32_t> computed = ExpectedBlockChecksum(
      footer, handle.offset, bytes.substr(0, handle.size), bytes[handle.size]);
  std::string_view stored_field = bytes.substr(handle.size + 1);
  uint32_t stored = 0;
  DecodeFixed32(&stored_field, &stored);  // The trailer's 4 bytes are there.
  if (computed.has_value() && *computed != stored) {
    return absl::DataLossError(absl::StrFormat(
        "%s (offset %d, size %d): block checksum mismatch (stored 0x%08x, computed 0x%08x)",
        what, handle.offset, handle.size, stored, *computed));
  }
  return absl::OkStatus();
}

}  // namespace

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
    return absl::DataLossError(absl::StrFormat(
        "%s (offset %d, size %d) lies outside the table's %d bytes of blocks", what,
        handle.offset, handle.size, blocks_end));
  }
  std::string scratch;
  absl::StatusOr<std::string_view> bytes =
      file.Read(handle.offset, handle.size + kBlockTrailerSize, &scratch);
  if (!bytes.ok()) return bytes.status();
  if (verify_checksum) {
    if (absl::Status s = VerifyTrailerChecksum(footer, handle, *bytes, what); !s.ok()) return s;
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
    return absl::DataLossError(absl::StrFormat(
        "%s (offset %d) is compressed (type %d); RocksDB writes it uncompressed",
        what, handle.offset, block->compression));
  }
  return std::move(block->contents);
}

}  // namespace sstfilter
