// The footer of a block-based table (RocksDB format_version 0..7; RocksDB
// 7.8 writes up to 5, 8.6 and later 6, 10.4 and later 7, its default from
// 10.11), which LevelDB's tables share in its legacy form. Own code written
// from the format's facts:
//
//   file    = block* metaindex_block footer
//   footer  = legacy (format_version 0, and LevelDB): metaindex handle,
//             index handle, zero padding to 40 bytes, fixed64 magic
//             0xdb4775248b80fb57;
//             newer: 1 byte checksum type, the two handles padded to 40
//             bytes, fixed32 format_version, fixed64 magic 0x88e241b785f4cff7;
//             format_version 6 replaces the handles by: extended magic
//             3e 00 7a 00, fixed32 footer checksum, fixed32 base context
//             checksum (not 0), fixed32 metaindex size (the metaindex ends
//             right before the footer, trailer included), 16 unchecked
//             bytes, 8 bytes that must be zero. The footer checksum covers
//             its 53 bytes with the checksum field zeroed, plus the context
//             modifier of the footer's offset (block_checksum.h), and the
//             index handle is the metaindex entry "rocksdb.index".
//             format_version 7 has 6's footer and blocks (what differs is
//             in compression_name.h).
#ifndef SSTFILTER_INSPECT_SST_FOOTER_H_
#define SSTFILTER_INSPECT_SST_FOOTER_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "inspect/block_handle.h"
#include "inspect/sst_source.h"

namespace sstfilter {

inline constexpr uint64_t kBlockBasedTableMagic = 0x88e241b785f4cff7ULL;
inline constexpr uint64_t kLegacyBlockBasedTableMagic = 0xdb4775248b80fb57ULL;
inline constexpr uint32_t kMaxSupportedFormatVersion = 7;  // RocksDB 10.4 to 11.x
// Metaindex entries: the index handle from format_version 6, and the
// properties block, which every RocksDB table has and no LevelDB table.
inline constexpr std::string_view kIndexMetaBlockName = "rocksdb.index";
inline constexpr std::string_view kPropertiesMetaBlockName = "rocksdb.properties";

struct SstFooter {
  uint32_t format_version = 0;
  uint8_t checksum_type = 1;  // 0 none, 1 crc32c, 2 xxHash, 3 xxHash64, 4 XXH3.
  BlockHandle metaindex;
  BlockHandle index;  // From format_version 6, from the metaindex.
  uint64_t encoded_size = 0;  // 48 (legacy) or 53 bytes at the end of the file.
  uint32_t base_context_checksum = 0;  // From format_version 6; 0 before.
};

// Reads and validates the footer of a block-based table: DataLoss for a file
// too short or without a block-based magic number (naming plain and cuckoo
// tables when it sees their magic), an unknown format_version or checksum
// type, or handles outside the file. From format_version 6 it also checks
// the footer's own checksum and reads the index handle from the metaindex
// block, whose checksum it then verifies (as RocksDB does on opening).
absl::StatusOr<SstFooter> ReadSstFooter(const SstSource& file);

}  // namespace sstfilter

#endif  // SSTFILTER_INSPECT_SST_FOOTER_H_
