// kBandedEncodingInfo: the banded encoding as encodings.h lists it.
#include <algorithm>
#include <string>

#include "absl/base/attributes.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "filter/banded/filter.h"
#include "filter/banded/kernels.h"
#include "filter/cache_local/math.h"

namespace sstfilter {

namespace {

constexpr char kName[] = "banded";

std::string LayersName(const BandedShape& s) {
  return absl::StrFormat("%s r=%d layers=%d", kName, s.widths.columns, s.num_layers);
}

FilterDescription Describe(std::string_view filter) {
  const BandedFilterReader r(filter);
  if (r.body() == kBandedBodyLayers) {
    const BandedShape shape = r.shape();
    // 2^-r per key (2^-(r-1) in narrow blocks), whatever n.
    return FilterDescription::Probed(LayersName(shape), kBandedBlocksPerQuery,
                                     static_cast<double>(shape.LayerBytes()) * 8,
                                     [shape](double) { return shape.FpRate(); });
  }
  if (r.body() == 0) {
    return FilterDescription::Fixed(FilterState::kMatchEverything,
                                    absl::StrCat(kName, ", damaged trailer (reads as may-match)"));
  }
  return DescribeTaggedBloom(filter, kName);
}

double ExpectedFpRate(size_t num_keys, double bits_per_key) {
  if (!BandedFilterBuilder(bits_per_key).UsesLayers(num_keys)) {
    return CacheLocalExpectedFpRate(num_keys, bits_per_key);
  }
  return BandedPlan(num_keys, bits_per_key).FpRate();
}

// The planned layers at other sizes (which RocksDB may ask about, and
// optimize_filters_for_memory writes): fewer columns or more narrow blocks
// (FitBandedWidths). At FilterSize, the model.
double SizedFpRate(size_t num_keys, size_t bytes, double bits_per_key) {
  if (!BandedFilterBuilder(bits_per_key).UsesLayers(num_keys)) {
    return TaggedBloomFpRate(num_keys, bytes, bits_per_key);
  }
  BandedShape s = BandedPlan(num_keys, bits_per_key);
  const size_t trailer = BandedTrailerBytes(s.num_layers);
  if (bytes <= trailer) return 1.0;
  s.widths = FitBandedWidths(s, std::min(s.widths.columns + 1, banded::kMaxColumns), bytes - trailer);
  return s.widths.columns == 0 ? 1.0 : s.FpRate();
}

PlanDetails Details(size_t num_keys, double bits_per_key) {
  PlanDetails details;
  details.fp_parts = {{"  target (cache-local Bloom)",
                       absl::StrFormat("%.6g", BandedTargetFpRate(bits_per_key))}};
  if (!BandedFilterBuilder(bits_per_key).UsesLayers(num_keys)) {
    details.layout = {{"body", "cache-local Bloom (smaller for these keys)"}};
    return details;
  }
  const BandedShape s = BandedPlan(num_keys, bits_per_key);
  details.layout = {
      {"body", "bumped Ribbon, 64-slot bands"},
      {"columns", absl::StrFormat("%d (%u of %u layer-0 blocks %d)", s.widths.columns,
                                  static_cast<unsigned>(s.widths.narrow_blocks),
                                  static_cast<unsigned>(s.blocks[0]), s.widths.columns - 1)},
      {"layers", absl::StrFormat("%u + %u blocks planned", static_cast<unsigned>(s.blocks[0]),
                                 static_cast<unsigned>(s.blocks[1]))},
      {"build memory", absl::StrFormat("%.0f bits/key while building",
                                       double(BandedBuildTempBytes(num_keys, s)) * 8 /
                                           double(num_keys))}};
  return details;
}

std::string Kernels() { return GetBandedKernels(BestSimdLevel()).name; }

}  // namespace

ABSL_CONST_INIT const EncodingInfo kBandedEncodingInfo = {
    kName, "sstfilter banded (bumped Ribbon, 64-slot bands)", kBandedTag,
    BandedFilterReader::Recognises, ExpectedFpRate, SizedFpRate, Describe, Details, Kernels};

}  // namespace sstfilter
