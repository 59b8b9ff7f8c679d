// kCacheLocalEncodingInfo: the cache-local encoding as encodings.h lists it.
#include "filter/cache_local_bloom.h"

#include "absl/base/attributes.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "filter/bloom_math.h"
#include "filter/cache_local_math.h"
#include "filter/cache_local_probes.h"

namespace sstfilter {

namespace {

constexpr char kName[] = "cache_local";

FilterDescription Describe(std::string_view filter) {
  const CacheLocalBloomReader r(filter);
  switch (r.state()) {
    case FilterState::kMatchNothing:
      return FilterDescription::Fixed(r.state(), absl::StrCat(kName, ", empty (matches nothing)"));
    case FilterState::kMatchEverything:
      return FilterDescription::Fixed(
          r.state(), absl::StrCat(kName, ", damaged trailer (reads as may-match)"));
    case FilterState::kProbe:
      break;
  }
  return FilterDescription::Probed(
      absl::StrFormat("%s k=%d", kName, r.num_probes()), r.num_probes(),
      static_cast<double>(r.num_lines()) * cache_local::kLineBits,
      [lines = r.num_lines(), k = r.num_probes()](double n) {
        return BlockedBloomFpRate(n / lines, k);
      });
}

double SizedFpRate(size_t num_keys, size_t bytes, double bits_per_key) {
  const size_t lines = bytes < kCacheLocalTrailerBytes
                           ? 0
                           : (bytes - kCacheLocalTrailerBytes) / cache_local::kLineBytes;
  return CacheLocalFilterFpRate(num_keys, lines, CacheLocalNumProbes(bits_per_key));
}

// The layout, and the same bits and k spread over one big array for
// comparison: the price of keeping every key in one cache line.
PlanDetails Details(size_t num_keys, double bits_per_key) {
  const uint64_t lines = CacheLocalNumLines(num_keys, bits_per_key);
  const double spread = StandardBloomFpRate(
      static_cast<double>(num_keys), static_cast<double>(lines) * cache_local::kLineBits,
      CacheLocalNumProbes(bits_per_key));
  PlanDetails details;
  details.layout = {{"lines (64 bytes)", absl::StrFormat("%d", lines)}};
  details.fp_parts = {{"  standard bloom", absl::StrFormat("%.6g", spread)}};
  return details;
}

}  // namespace

ABSL_CONST_INIT const EncodingInfo kCacheLocalEncodingInfo = {
    kName, "sstfilter cache-local Bloom", IsCacheLocalBloomFilter, CacheLocalExpectedFpRate,
    SizedFpRate, Describe, Details};

}  // namespace sstfilter
