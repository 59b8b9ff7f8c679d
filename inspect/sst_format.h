// Just enough of RocksDB's block-based table format (format_version 0..7;
// RocksDB 7.8 writes up to 5, 8.6 and later 6, 10.4 and later 7, its
// default from 10.11) to find meta blocks and index entries, with every
// read bounds-checked: damaged input gives a DataLoss status naming what is
// wrong, never a crash. Own code written from the format's facts:
//
//   file    = block* metaindex_block footer
//   block   = contents, then a 5-byte trailer: compression type (1 byte),
//             checksum (4 bytes). A BlockHandle's size excludes the trailer.
//   handle  = varint64 offset, varint64 size
//   footer  = legacy (format_version 0): metaindex handle, index handle,
//             zero padding to 40 bytes, fixed64 magic 0xdb4775248b80fb57;
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
//             format_version 7 has 6's footer and blocks; what differs is
//             the table property "rocksdb.compression" (see
//             ParseCompressionName), and the compression type bytes it
//             allows in block trailers: besides RocksDB's built-in types
//             (0..7), the custom ones (0x80..0xfe) of a CompressionManager.
//   block contents = entry* restart_offset(fixed32)* packed_count(fixed32)
//             (the top bit of packed_count flags a data-block hash index; the
//             low 31 bits are the restart count)
//   entry   = varint32 shared, varint32 non_shared, varint32 value_length,
//             key bytes after the shared prefix, value
//   index blocks with delta-encoded values (index_value_is_delta_encoded,
//             format_version >= 4) drop value_length; an entry with shared
//             == 0 holds a full handle, any other a zigzag varint64 size
//             delta from the previous handle, its offset being the previous
//             offset + size + trailer.
//
// Each block read here can have its trailer checksum verified
// (block_checksum.h): RocksDB's SstFileReader::VerifyChecksum skips filter
// partitions, so the inspector checks every block it reads itself.
// Compressed blocks are refused.
#ifndef SSTFILTER_INSPECT_SST_FORMAT_H_
#define SSTFILTER_INSPECT_SST_FORMAT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "inspect/sst_source.h"

namespace sstfilter {

inline constexpr uint64_t kBlockTrailerSize = 5;
inline constexpr uint64_t kBlockBasedTableMagic = 0x88e241b785f4cff7ULL;
inline constexpr uint64_t kLegacyBlockBasedTableMagic = 0xdb4775248b80fb57ULL;
inline constexpr uint32_t kMaxSupportedFormatVersion = 7;  // RocksDB 10.4 to 11.x
inline constexpr std::string_view kIndexMetaBlockName = "rocksdb.index";
inline constexpr std::string_view kPropertiesMetaBlockName = "rocksdb.properties";
// The table property naming the table's compression (an entry of the
// properties block, which RocksDB writes uncompressed).
inline constexpr std::string_view kCompressionNameProperty = "rocksdb.compression";

// Decoders over a cursor: each consumes what it decodes from *in and returns
// false (leaving *in unspecified) on truncated or over-long input.
bool DecodeVarint32(std::string_view* in, uint32_t* value);
bool DecodeVarint64(std::string_view* in, uint64_t* value);
bool DecodeFixed32(std::string_view* in, uint32_t* value);
bool DecodeFixed64(std::string_view* in, uint64_t* value);

struct BlockHandle {
  uint64_t offset = 0;
  uint64_t size = 0;  // Excludes the trailer.
  bool operator==(const BlockHandle& o) const {
    return offset == o.offset && size == o.size;
  }
};
bool DecodeBlockHandle(std::string_view* in, BlockHandle* handle);

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

// The trailer checksum the block at `offset` should carry under the
// footer's checksum type and context; nullopt when there is nothing to
// check (BlockChecksum).
std::optional<uint32_t> ExpectedBlockChecksum(const SstFooter& footer, uint64_t offset,
                                              std::string_view block, char type_byte);

// The table property kCompressionNameProperty, decoded. Before
// format_version 7 it is the name of one built-in compression type
// ("NoCompression", "Snappy", "ZSTD", ...; empty from RocksDB before 4.9).
// From 7 it has fields, each ended by ';':
//   <compatibility name>;<types>;[fields for future use]
// the CompatibilityName() of the CompressionManager that wrote the table
// ("BuiltinV2" for RocksDB's own; empty when compression was disabled),
// then the sorted set of compression types other than none used in the
// table, two hex digits each: "BuiltinV2;0107;", ";;" (nothing compressed).
// A table without the property (none before RocksDB 4.9) is read with
// RocksDB's built-in decompressors, whatever its format_version.
struct CompressionName {
  bool has_fields = false;  // The format_version 7 form: manager and types.
  std::string legacy_name;  // Before format_version 7: the whole value.
  std::string manager;         // The compatibility name.
  std::vector<uint8_t> types;  // As listed; RocksDB writes them sorted.

  // Whether a block whose trailer says `type` can be in the table: none;
  // from format_version 7 a listed type; else a type RocksDB's built-in
  // compression knows (0..7, and 0x40, ZSTD written before its format was
  // final).
  bool AllowsBlockType(uint8_t type) const;
  // For people: "none", "Snappy", "ZSTD, Custom8A", and from 7 the
  // manager's name too: "Custom8A (compression manager 'Mine')".
  std::string ToString() const;
};

// Decodes the property's value as written at `format_version`; from 7 a
// value not of the form above (no ';' after the name or after the types, an
// odd number of hex digits, a bad hex digit, type 00 or ff) is DataLoss, as
// RocksDB refuses to open such a table. Before 7 every value is accepted.
absl::StatusOr<CompressionName> ParseCompressionName(std::string_view value,
                                                     uint32_t format_version);

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

// The contents of the uncompressed block at `handle`, which must lie, with
// its trailer, before the footer. `what` names the block in errors. With
// verify_checksum, a trailer checksum that does not match the block (under
// the footer's checksum type) is DataLoss.
absl::StatusOr<std::string> ReadUncompressedBlock(const SstSource& file,
                                                  const SstFooter& footer,
                                                  const BlockHandle& handle,
                                                  std::string_view what,
                                                  bool verify_checksum);

struct BlockEntry {
  std::string key;
  std::string value;
};
// All entries of a block whose entries carry value lengths (metaindex,
// properties, and index blocks without value delta encoding).
absl::StatusOr<std::vector<BlockEntry>> ParseBlockEntries(std::string_view block);

struct IndexEntry {
  std::string key;
  BlockHandle handle;
};
// All entries of an index block whose values are bare block handles (no
// first-key field), delta-encoded or not.
absl::StatusOr<std::vector<IndexEntry>> ParseIndexBlock(std::string_view block,
                                                        bool value_delta_encoded);

}  // namespace sstfilter

#endif  // SSTFILTER_INSPECT_SST_FORMAT_H_
