// A cache-local Bloom filter carried as another encoding's body: the
// compact and banded encodings write one where it is smaller (few keys)
// and as their fallback. Bytes: the cache-local filter
// (cache_local/bloom.h, with its own reader contract), then a body-kind
// byte (kTaggedBloomSmall or kTaggedBloomFallback) and the encoding's tag.
#ifndef SSTFILTER_FILTER_TAGGED_BLOOM_H_
#define SSTFILTER_FILTER_TAGGED_BLOOM_H_

#include <cstddef>
#include <optional>
#include <string_view>

#include "absl/base/attributes.h"
#include "filter/encoding_info.h"
#include "filter/hash_blocks.h"

namespace sstfilter {

inline constexpr size_t kTaggedBloomTrailerBytes = 2;
inline constexpr unsigned char kTaggedBloomSmall = 2;     // Planned: smaller for these keys.
inline constexpr unsigned char kTaggedBloomFallback = 3;  // The encoding's own body failed.

// The Bloom filter inside `filter` when it ends with `tag` after a Bloom
// body kind, else nullopt. Inline: one-shot queries call it per key.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<std::string_view> TaggedBloomBody(
    std::string_view filter, unsigned char tag) {
  if (filter.size() < kTaggedBloomTrailerBytes ||
      static_cast<unsigned char>(filter.back()) != tag) {
    return std::nullopt;
  }
  const auto body = static_cast<unsigned char>(filter[filter.size() - 2]);
  if (body != kTaggedBloomSmall && body != kTaggedBloomFallback) return std::nullopt;
  return filter.substr(0, filter.size() - kTaggedBloomTrailerBytes);
}

// Bytes of such a filter for n entries at bits_per_key.
size_t TaggedBloomSize(size_t num_entries, double bits_per_key);
// The largest size <= bytes a filter of n entries can be written at, 0 if
// none (CacheLocalBloomBuilder::FittingFilterSize, plus the trailer).
size_t FittingTaggedBloomSize(size_t num_entries, double bits_per_key, size_t bytes);
// The FP model of such a filter of `bytes` bytes holding n keys.
double TaggedBloomFpRate(size_t num_keys, size_t bytes, double bits_per_key);
// Writes the filter of `hashes` (64-bit, as cache-local adds them) into
// out[0, bytes). REQUIRES: bytes a size FittingTaggedBloomSize gave.
void WriteTaggedBloom(const HashBlocks& hashes, double bits_per_key, unsigned char body,
                      unsigned char tag, char* out, size_t bytes);
// How tools describe it: the cache-local description, labelled
// "<name> (small) ..." or "<name> (fallback) ...".
// REQUIRES: TaggedBloomBody(filter, its tag).
FilterDescription DescribeTaggedBloom(std::string_view filter, std::string_view name);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_TAGGED_BLOOM_H_
