// The frame of a structured encoding (compact, banded): its body, then two
// bytes that say what the body is.
//   body      the encoding's own (structured) body with its own trailer, or
//             a whole cache-local Bloom filter (structured/tagged_bloom.h)
//   1 byte    body kind: kStructuredBody, kSmallBloomBody or
//             kFallbackBloomBody
//   1 byte    the encoding's tag (above 30: a LevelDB reader's "may match")
// A builder writes the structured body where it is the smaller, a small
// Bloom body where a Bloom filter is (few keys, or none), and a fallback
// Bloom body where the structured body could not be built: at the same
// bits/key it is as accurate, and larger.
//
// Reader contract: a body kind other than these three matches everything,
// as does a structured body its encoding's parse does not fully accept.
#ifndef SSTFILTER_FILTER_STRUCTURED_FRAME_H_
#define SSTFILTER_FILTER_STRUCTURED_FRAME_H_

#include <cstddef>
#include <string_view>

#include "absl/base/attributes.h"

namespace sstfilter {

inline constexpr size_t kFrameBytes = 2;
inline constexpr unsigned char kStructuredBody = 1;
inline constexpr unsigned char kSmallBloomBody = 2;     // Planned: smaller for these keys.
inline constexpr unsigned char kFallbackBloomBody = 3;  // The structured body failed.

// Whether filter ends with `tag` (after a body kind of any value).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool HasFrameTag(std::string_view filter, unsigned char tag) {
  return filter.size() >= kFrameBytes && static_cast<unsigned char>(filter.back()) == tag;
}

// The body kind byte. REQUIRES: HasFrameTag(filter, its tag).
ABSL_ATTRIBUTE_ALWAYS_INLINE inline unsigned char FrameBodyKind(std::string_view filter) {
  return static_cast<unsigned char>(filter[filter.size() - 2]);
}

// Whether filter is framed with `tag` around a structured body, and is at
// least min_bytes long (the body's trailer and the frame): the check each
// encoding's parse starts with. Inline: one-shot queries parse per key.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool HasStructuredBody(std::string_view filter,
                                                           unsigned char tag, size_t min_bytes) {
  return HasFrameTag(filter, tag) && FrameBodyKind(filter) == kStructuredBody &&
         filter.size() >= min_bytes;
}

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_STRUCTURED_FRAME_H_
