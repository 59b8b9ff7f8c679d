#include "filter/tagged_bloom.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "filter/cache_local/bloom.h"

namespace sstfilter {

size_t TaggedBloomSize(size_t num_entries, double bits_per_key) {
  return CacheLocalBloomBuilder(bits_per_key).FilterSize(num_entries) + kTaggedBloomTrailerBytes;
}

size_t FittingTaggedBloomSize(size_t num_entries, double bits_per_key, size_t bytes) {
  if (bytes <= kTaggedBloomTrailerBytes) return 0;
  const size_t bloom = CacheLocalBloomBuilder(bits_per_key)
                           .FittingFilterSize(num_entries, bytes - kTaggedBloomTrailerBytes);
  return bloom == 0 ? 0 : bloom + kTaggedBloomTrailerBytes;
}

double TaggedBloomFpRate(size_t num_keys, size_t bytes, double bits_per_key) {
  return kCacheLocalEncodingInfo.sized_fp_rate(
      num_keys, bytes > kTaggedBloomTrailerBytes ? bytes - kTaggedBloomTrailerBytes : 0,
      bits_per_key);
}

void WriteTaggedBloom(const HashBlocks& hashes, double bits_per_key, unsigned char body,
                      unsigned char tag, char* out, size_t bytes) {
  CacheLocalBloomBuilder bloom(bits_per_key);
  hashes.ForEach([&bloom](uint64_t h) { bloom.AddHash(h); });
  const size_t bloom_bytes = bytes - kTaggedBloomTrailerBytes;
  bloom.FinishInto(out, bloom_bytes);
  out[bloom_bytes] = static_cast<char>(body);
  out[bloom_bytes + 1] = static_cast<char>(tag);
}

FilterDescription DescribeTaggedBloom(std::string_view filter, std::string_view name) {
  const auto body = static_cast<unsigned char>(filter[filter.size() - 2]);
  FilterDescription d =
      kCacheLocalEncodingInfo.describe(filter.substr(0, filter.size() - kTaggedBloomTrailerBytes));
  d.name = absl::StrCat(std::string(name), body == kTaggedBloomFallback ? " (fallback) " : " (small) ",
                        d.name);
  return d;
}

}  // namespace sstfilter
