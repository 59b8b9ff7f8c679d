#include "filter/structured/tagged_bloom.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "filter/cache_local/bloom.h"

namespace sstfilter {

size_t TaggedBloomSize(size_t num_entries, double bits_per_key) {
  return CacheLocalBloomBuilder(bits_per_key).FilterSize(num_entries) + kFrameBytes;
}

size_t FittingTaggedBloomSize(size_t num_entries, double bits_per_key, size_t bytes) {
  if (bytes <= kFrameBytes) return 0;
  const size_t bloom =
      CacheLocalBloomBuilder(bits_per_key).FittingFilterSize(num_entries, bytes - kFrameBytes);
  return bloom == 0 ? 0 : bloom + kFrameBytes;
}

double TaggedBloomFpRate(size_t num_keys, size_t bytes, double bits_per_key) {
  return kCacheLocalEncodingInfo.sized_fp_rate(
      num_keys, bytes > kFrameBytes ? bytes - kFrameBytes : 0, bits_per_key);
}

void WriteBloomBody(const HashBlocks& hashes, double bits_per_key, char* out, size_t bloom_bytes) {
  CacheLocalBloomBuilder bloom(bits_per_key);
  hashes.ForEach([&bloom](uint64_t h) { bloom.AddHash(h); });
  bloom.FinishInto(out, bloom_bytes);
}

FilterDescription DescribeTaggedBloom(std::string_view filter, std::string_view name) {
  FilterDescription d =
      kCacheLocalEncodingInfo.describe(filter.substr(0, filter.size() - kFrameBytes));
  const bool fallback = FrameBodyKind(filter) == kFallbackBloomBody;
  d.name = absl::StrCat(std::string(name), fallback ? " (fallback) " : " (small) ", d.name);
  return d;
}

}  // namespace sstfilter
