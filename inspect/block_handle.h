// Where a block lies in a table file, as RocksDB's and LevelDB's formats
// write it:
//
//   block   = contents, then a 5-byte trailer: compression type (1 byte),
//             checksum (4 bytes, block_checksum.h)
//   handle  = varint64 offset, varint64 size; the size excludes the trailer
#ifndef SSTFILTER_INSPECT_BLOCK_HANDLE_H_
#define SSTFILTER_INSPECT_BLOCK_HANDLE_H_

#include <cstdint>
#include <string_view>

#include "inspect/coding.h"

namespace sstfilter {

inline constexpr uint64_t kBlockTrailerSize = 5;

struct BlockHandle {
  uint64_t offset = 0;
  uint64_t size = 0;  // Excludes the trailer.
  bool operator==(const BlockHandle& o) const {
    return offset == o.offset && size == o.size;
  }
};

// Consumes a handle from *in; false (leaving *in unspecified) when either
// varint64 is truncated or malformed. Nothing about the file is checked.
inline bool DecodeBlockHandle(std::string_view* in, BlockHandle* handle) {
  return DecodeVarint64(in, &handle->offset) && DecodeVarint64(in, &handle->size);
}

}  // namespace sstfilter

#endif  // SSTFILTER_INSPECT_BLOCK_HANDLE_H_
