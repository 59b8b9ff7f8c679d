#include "inspect/coding.h"

#include <cstddef>

namespace sstfilter {

namespace {

// A varint of at most max_bytes whose value is at most limit.
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

}  // namespace sstfilter
