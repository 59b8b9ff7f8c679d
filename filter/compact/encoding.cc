// kCompactEncodingInfo: the compact encoding as encodings.h lists it.
#include <optional>
#include <string>

#include "absl/base/attributes.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "filter/cache_local/math.h"
#include "filter/compact/filter.h"
#include "filter/compact/kernels.h"
#include "filter/simd_level.h"

namespace sstfilter {

namespace {

constexpr char kName[] = "compact";

std::string FuseName(const FuseShape& s) {
  return absl::StrFormat("%s fuse4 r=%d", kName, s.fingerprint_bits);
}

FilterDescription Describe(std::string_view filter) {
  const CompactFilterReader r(filter);
  if (r.body() == kCompactBodyFuse) {
    const FuseShape shape = r.shape();
    // 2^-r per key, whatever n (up to the keys the shape was built for).
    return FilterDescription::Probed(FuseName(shape), kCompactArity,
                                     static_cast<double>(shape.array_bits()),
                                     [shape](double) { return shape.FpRate(); });
  }
  if (r.body() == 0) {
    return FilterDescription::Fixed(FilterState::kMatchEverything,
                                    absl::StrCat(kName, ", damaged trailer (reads as may-match)"));
  }
  return DescribeTaggedBloom(filter, kName);
}

double ExpectedFpRate(size_t num_keys, double bits_per_key) {
  const CompactFilterBuilder builder(bits_per_key);
  if (!builder.UsesFuse(num_keys)) return CacheLocalExpectedFpRate(num_keys, bits_per_key);
  return CompactFuseShape(num_keys, bits_per_key).FpRate();
}

// A fuse filter for these keys at other sizes (which RocksDB may ask about,
// and optimize_filters_for_memory writes): the same cells at the widths
// that fill the bytes (FitFingerprints). At FilterSize, the model.
double SizedFpRate(size_t num_keys, size_t bytes, double bits_per_key) {
  const CompactFilterBuilder builder(bits_per_key);
  if (!builder.UsesFuse(num_keys)) {
    // Not a fuse filter for these keys: the Bloom filter those bytes hold.
    return TaggedBloomFpRate(num_keys, bytes, bits_per_key);
  }
  if (bytes <= kCompactFuseTrailerBytes) return 1.0;
  const std::optional<FuseShape> widths = FitFingerprints(
      CompactFuseShape(num_keys, bits_per_key), uint64_t{bytes - kCompactFuseTrailerBytes} * 8);
  return widths ? widths->FpRate() : 1.0;
}

PlanDetails Details(size_t num_keys, double bits_per_key) {
  PlanDetails details;
  const CompactFilterBuilder builder(bits_per_key);
  details.fp_parts = {{"  target (cache-local Bloom)",
                       absl::StrFormat("%.6g", CompactTargetFpRate(bits_per_key))}};
  if (!builder.UsesFuse(num_keys)) {
    details.layout = {{"body", "cache-local Bloom (smaller for these keys)"}};
    return details;
  }
  const FuseShape s = CompactFuseShape(num_keys, bits_per_key);
  details.layout = {
      {"body", "4-wise binary fuse"},
      {"fingerprint bits", absl::StrFormat("%d (%u of %u window starts %d)", s.fingerprint_bits,
                                           s.narrow_cells, static_cast<unsigned>(s.window_starts()),
                                           s.fingerprint_bits - 1)},
      {"segments", absl::StrFormat("%u + 3 of %u cells", s.segment_count, s.segment_length())},
      {"build memory", absl::StrFormat("%.0f bits/key while building (hashes + peeler cells)",
                                       double(CompactBuildTempBytes(num_keys, s)) * 8 /
                                           double(num_keys))}};
  return details;
}

// Single keys are probed by scalar code at every level; groups of
// kCompactSimdMinGroup keys or more by the level's kernel.
std::string Kernels() {
  if (GetCompactQueryKernel(BestSimdLevel()) == nullptr) return "scalar";
  return absl::StrFormat("%s batched (%d+ keys) single keys scalar",
                         std::string(SimdLevelName(BestSimdLevel())), kCompactSimdMinGroup);
}

}  // namespace

ABSL_CONST_INIT const EncodingInfo kCompactEncodingInfo = {
    kName, "sstfilter compact (4-wise binary fuse)", kCompactTag, CompactFilterReader::Recognises,
    ExpectedFpRate, SizedFpRate, Describe, Details, Kernels};

}  // namespace sstfilter
