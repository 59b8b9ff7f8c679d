// kCacheLocalEncodingInfo: the cache-local encoding as encodings.h lists it.
#include "filter/cache_local/bloom.h"

#include "absl/base/attributes.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "filter/bloom_math.h"
#include "filter/cache_local/math.h"
#include "filter/cache_local/probes.h"
#include "filter/simd_level.h"

namespace sstfilter {

namespace {

// The entries of its EncodingInfo, named apart from the other encodings'
// (a unity build compiles them as one source).
namespace cache_local_entries {

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
  const CacheLocalShape shape{r.num_lines(), r.line_bytes()};
  return FilterDescription::Probed(
      absl::StrFormat("%s k=%d", kName, r.num_probes()), r.num_probes(),
      static_cast<double>(shape.array_bytes()) * 8,
      [shape, k = r.num_probes()](double n) {
        return CacheLocalFilterFpRate(static_cast<size_t>(n), shape, k);
      });
}

double SizedFpRate(size_t num_keys, size_t bytes, double bits_per_key) {
  const uint64_t array_bytes = bytes < kCacheLocalTrailerBytes ? 0 : bytes - kCacheLocalTrailerBytes;
  // A size no builder writes (it is not our FilterSize): the whole lines it holds.
  const CacheLocalShape shape = CacheLocalShapeOfArray(array_bytes)
                                    .value_or(CacheLocalShape{array_bytes / cache_local::kLineBytes});
  return CacheLocalFilterFpRate(num_keys, shape, CacheLocalNumProbes(bits_per_key));
}

// The layout, and the same bits and k spread over one big array for
// comparison: the price of keeping every key in one line.
PlanDetails Details(size_t num_keys, double bits_per_key) {
  const CacheLocalShape shape = CacheLocalFilterShape(num_keys, bits_per_key);
  const double spread = StandardBloomFpRate(
      static_cast<double>(num_keys), static_cast<double>(shape.array_bytes()) * 8,
      CacheLocalNumProbes(bits_per_key));
  PlanDetails details;
  details.layout = {{absl::StrFormat("lines (%d bytes)", shape.line_bytes),
                     absl::StrFormat("%d", shape.num_lines)}};
  details.fp_parts = {{"  standard bloom", absl::StrFormat("%.6g", spread)}};
  return details;
}

std::string Kernels() { return std::string(SimdLevelName(BestSimdLevel())); }

}  // namespace cache_local_entries
}  // namespace

ABSL_CONST_INIT const EncodingInfo kCacheLocalEncodingInfo = {
    cache_local_entries::kName,
    "sstfilter cache-local Bloom",
    kCacheLocalTag,
    CacheLocalBloomReader::Recognises,
    CacheLocalExpectedFpRate,
    cache_local_entries::SizedFpRate,
    cache_local_entries::Describe,
    cache_local_entries::Details,
    cache_local_entries::Kernels};

}  // namespace sstfilter
