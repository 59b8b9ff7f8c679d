// Reading one block of a table file by its handle (block_handle.h): bounds
// checked against the blocks before the footer, its trailer checksum
// verified on request (block_checksum.h; RocksDB's
// SstFileReader::VerifyChecksum skips filter partitions, so the inspector
// checks every block it reads itself). Damage is a DataLoss status naming
// the block.
#ifndef SSTFILTER_INSPECT_BLOCK_READER_H_
#define SSTFILTER_INSPECT_BLOCK_READER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "inspect/block_handle.h"
#include "inspect/sst_footer.h"
#include "inspect/sst_source.h"

namespace sstfilter {

// The trailer checksum the block at `offset` should carry under the
// footer's checksum type and context; nullopt when there is nothing to
// check (BlockChecksum).
std::optional<uint32_t> ExpectedBlockChecksum(const SstFooter& footer, uint64_t offset,
                                              std::string_view block, char type_byte);

// A block as stored: its bytes (trailer excluded) and the trailer's
// compression type byte (0 none; LevelDB and RocksDB use 1 for Snappy).
struct StoredBlock {
  std::string contents;
  uint8_t compression = 0;
};

// The block at `handle`, which must lie, with its trailer, before the
// footer; `what` names it in errors. With verify_checksum, a trailer
// checksum that does not match the block (under the footer's checksum type)
// is DataLoss. Compressed contents are returned as stored.
absl::StatusOr<StoredBlock> ReadStoredBlock(const SstSource& file, const SstFooter& footer,
                                            const BlockHandle& handle, std::string_view what,
                                            bool verify_checksum);

// The contents of the block at `handle`, as ReadStoredBlock reads them; a
// compressed block is DataLoss (RocksDB writes meta blocks uncompressed).
absl::StatusOr<std::string> ReadUncompressedBlock(const SstSource& file,
                                                  const SstFooter& footer,
                                                  const BlockHandle& handle,
                                                  std::string_view what,
                                                  bool verify_checksum);

}  // namespace sstfilter

#endif  // SSTFILTER_INSPECT_BLOCK_READER_H_
