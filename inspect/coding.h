// The integer encodings of RocksDB's and LevelDB's table formats, decoded
// from a cursor over untrusted bytes:
//   fixed32, fixed64  little-endian, 4 or 8 bytes
//   varint32          1 to 5 bytes, 7 bits each, low bits first; the top bit
//                     of a byte says another follows
//   varint64          the same in 1 to 10 bytes
#ifndef SSTFILTER_INSPECT_CODING_H_
#define SSTFILTER_INSPECT_CODING_H_

#include <cstdint>
#include <string_view>

namespace sstfilter {

// Each consumes what it decodes from *in and returns false (leaving *in
// unspecified) on truncated input, or a varint longer than its type allows
// or with a value that does not fit it.
bool DecodeVarint32(std::string_view* in, uint32_t* value);
bool DecodeVarint64(std::string_view* in, uint64_t* value);
bool DecodeFixed32(std::string_view* in, uint32_t* value);
bool DecodeFixed64(std::string_view* in, uint64_t* value);

}  // namespace sstfilter

#endif  // SSTFILTER_INSPECT_CODING_H_
