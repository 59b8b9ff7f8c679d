// The Bloom bodies of a structured encoding's frame (structured/frame.h): a
// whole cache-local Bloom filter (cache_local/bloom.h, with its own reader
// contract), then the body kind (kSmallBloomBody or kFallbackBloomBody) and
// the encoding's tag. Sizes here are whole filters, frame included.
#ifndef SSTFILTER_FILTER_STRUCTURED_TAGGED_BLOOM_H_
#define SSTFILTER_FILTER_STRUCTURED_TAGGED_BLOOM_H_

#include <cstddef>
#include <optional>
#include <string_view>

#include "absl/base/attributes.h"
#include "filter/encoding_info.h"
#include "filter/hash_blocks.h"
#include "filter/structured/frame.h"

namespace sstfilter {

// The Bloom filter inside `filter` when it ends with `tag` after a Bloom
// body kind, else nullopt. Inline: one-shot queries call it per key.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<std::string_view> TaggedBloomBody(
    std::string_view filter, unsigned char tag) {
  if (!HasFrameTag(filter, tag)) return std::nullopt;
  const unsigned char body = FrameBodyKind(filter);
  if (body != kSmallBloomBody && body != kFallbackBloomBody) return std::nullopt;
  return filter.substr(0, filter.size() - kFrameBytes);
}

// Bytes of such a filter for n entries at bits_per_key.
size_t TaggedBloomSize(size_t num_entries, double bits_per_key);
// The largest size <= bytes a filter of n entries can be written at, 0 if
// none (CacheLocalBloomBuilder::FittingFilterSize, plus the frame).
size_t FittingTaggedBloomSize(size_t num_entries, double bits_per_key, size_t bytes);
// The FP model of such a filter of `bytes` bytes holding n keys.
double TaggedBloomFpRate(size_t num_keys, size_t bytes, double bits_per_key);
// Writes the Bloom filter of `hashes` (64-bit, as cache-local adds them)
// into out[0, bloom_bytes), the body the frame's two bytes follow.
// REQUIRES: bloom_bytes + kFrameBytes a size FittingTaggedBloomSize gave.
void WriteBloomBody(const HashBlocks& hashes, double bits_per_key, char* out, size_t bloom_bytes);
// How tools describe it: the cache-local description, labelled
// "<name> (small) ..." or "<name> (fallback) ...".
// REQUIRES: TaggedBloomBody(filter, its tag).
FilterDescription DescribeTaggedBloom(std::string_view filter, std::string_view name);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_STRUCTURED_TAGGED_BLOOM_H_
