// The table property "rocksdb.compression" (an entry of the properties
// block, kPropertiesMetaBlockName, which RocksDB writes uncompressed): which
// compression types the blocks of a block-based table may carry in their
// trailers. From format_version 7 it lists them, custom ones (0x80..0xfe, of
// a CompressionManager) included; before, it names one built-in type (0..7),
// and any built-in type may appear.
#ifndef SSTFILTER_INSPECT_COMPRESSION_NAME_H_
#define SSTFILTER_INSPECT_COMPRESSION_NAME_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace sstfilter {

inline constexpr std::string_view kCompressionNameProperty = "rocksdb.compression";

// The property kCompressionNameProperty, decoded. Before format_version 7
// it is the name of one built-in compression type ("NoCompression",
// "Snappy", "ZSTD", ...; empty from RocksDB before 4.9). From 7 it has
// fields, each ended by ';':
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

}  // namespace sstfilter

#endif  // SSTFILTER_INSPECT_COMPRESSION_NAME_H_
