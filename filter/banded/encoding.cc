// kBandedEncodingInfo: the banded encoding as encodings.h lists it.
#include <string>

#include "absl/base/attributes.h"
#include "absl/strings/str_format.h"
#include "filter/banded/filter.h"
#include "filter/banded/kernels.h"
#include "filter/structured/describe.h"

namespace sstfilter {

namespace {

// The entries of its EncodingInfo, named apart from the other encodings'
// (a unity build compiles them as one source).
namespace banded_entries {

constexpr char kName[] = "banded";

// The name says what a setting fixes (the columns, the blocks a query
// reads), not the layer count, which follows the keys a build bumped: the
// partitions of one table share it.
FilterDescription DescribeLayers(const BandedShape& shape) {
  // 2^-r per key (2^-(r-1) in narrow blocks), whatever n.
  return FilterDescription::Probed(absl::StrFormat("%s r=%d (%d blocks a query)", kName,
                                                   shape.widths.columns, kBandedBlocksPerQuery),
                                   kBandedBlocksPerQuery,
                                   static_cast<double>(shape.LayerBytes()) * 8,
                                   [shape](double) { return shape.FpRate(); });
}

FilterDescription Describe(std::string_view filter) {
  return DescribeStructured<BandedFilterReader>(filter, kName, DescribeLayers);
}

PlanLayout LayersLayout(const BandedShape& s, size_t num_keys) {
  const auto blocks = [&s](int i) { return static_cast<unsigned>(s.blocks[i]); };
  return {{"body", "bumped Ribbon, 64-slot bands"},
          {"columns", absl::StrFormat("%d (%u of %u layer-0 blocks %d)", s.widths.columns,
                                      static_cast<unsigned>(s.widths.narrow_blocks), blocks(0),
                                      s.widths.columns - 1)},
          {"layers", absl::StrFormat("%u + %u blocks planned", blocks(0), blocks(1))},
          {"build memory", BuildMemoryPerKey(BandedBuildTempBytes(num_keys, s), num_keys, "")}};
}

PlanDetails Details(size_t num_keys, double bits_per_key) {
  return StructuredPlanDetails<BandedFilterBuilder>(num_keys, bits_per_key,
                                                    BandedTargetFpRate(bits_per_key), LayersLayout);
}

std::string Kernels() { return GetBandedKernels(BestSimdLevel()).name; }

}  // namespace banded_entries
}  // namespace

ABSL_CONST_INIT const EncodingInfo kBandedEncodingInfo = {
    banded_entries::kName,
    "sstfilter banded (bumped Ribbon, 64-slot bands)",
    kBandedTag,
    BandedFilterReader::Recognises,
    StructuredExpectedFpRate<BandedFilterBuilder>,
    StructuredSizedFpRate<BandedFilterBuilder>,
    banded_entries::Describe,
    banded_entries::Details,
    banded_entries::Kernels};

}  // namespace sstfilter
