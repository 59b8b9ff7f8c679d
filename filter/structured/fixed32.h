// Little-endian 32-bit fields, as the structured bodies' trailers store
// them (compact's segment count and seed, banded's block counts).
#ifndef SSTFILTER_FILTER_STRUCTURED_FIXED32_H_
#define SSTFILTER_FILTER_STRUCTURED_FIXED32_H_

#include <cstdint>

#include "absl/base/attributes.h"

namespace sstfilter {

inline void PutFixed32(char* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>(v >> (8 * i));
}

// Inline: one-shot queries parse trailers per key.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline uint32_t GetFixed32(const unsigned char* in) {
  return uint32_t{in[0]} | uint32_t{in[1]} << 8 | uint32_t{in[2]} << 16 | uint32_t{in[3]} << 24;
}

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_STRUCTURED_FIXED32_H_
