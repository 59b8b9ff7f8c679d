// kCompactEncodingInfo: the compact encoding as encodings.h lists it.
#include <string>

#include "absl/base/attributes.h"
#include "absl/strings/str_format.h"
#include "filter/compact/filter.h"
#include "filter/compact/kernels.h"
#include "filter/simd_level.h"
#include "filter/structured/describe.h"

namespace sstfilter {

namespace {

// The entries of its EncodingInfo, named apart from the other encodings'
// (a unity build compiles them as one source).
namespace compact_entries {

constexpr char kName[] = "compact";

FilterDescription DescribeFuse(const FuseShape& shape) {
  // 2^-r per key, whatever n (up to the keys the shape was built for).
  return FilterDescription::Probed(absl::StrFormat("%s fuse4 r=%d", kName, shape.fingerprint_bits),
                                   kCompactArity, static_cast<double>(shape.array_bits()),
                                   [shape](double) { return shape.FpRate(); });
}

FilterDescription Describe(std::string_view filter) {
  return DescribeStructured<CompactFilterReader>(filter, kName, DescribeFuse);
}

PlanLayout FuseLayout(const FuseShape& s, size_t num_keys) {
  return {{"body", "4-wise binary fuse"},
          {"fingerprint bits",
           absl::StrFormat("%d (%u of %u window starts %d)", s.fingerprint_bits, s.narrow_cells,
                           static_cast<unsigned>(s.window_starts()), s.fingerprint_bits - 1)},
          {"segments", absl::StrFormat("%u + 3 of %u cells", s.segment_count, s.segment_length())},
          {"build memory", BuildMemoryPerKey(CompactBuildTempBytes(num_keys, s), num_keys,
                                             " (hashes + peeler cells)")}};
}

PlanDetails Details(size_t num_keys, double bits_per_key) {
  return StructuredPlanDetails<CompactFilterBuilder>(num_keys, bits_per_key,
                                                     CompactTargetFpRate(bits_per_key), FuseLayout);
}

// Single keys are probed by scalar code at every level; groups of
// kCompactSimdMinGroup keys or more by the level's kernel.
std::string Kernels() {
  if (GetCompactQueryKernel(BestSimdLevel()) == nullptr) return "scalar";
  return absl::StrFormat("%s batched (%d+ keys) single keys scalar",
                         std::string(SimdLevelName(BestSimdLevel())), kCompactSimdMinGroup);
}

}  // namespace compact_entries
}  // namespace

ABSL_CONST_INIT const EncodingInfo kCompactEncodingInfo = {
    compact_entries::kName,
    "sstfilter compact (4-wise binary fuse)",
    kCompactTag,
    CompactFilterReader::Recognises,
    StructuredExpectedFpRate<CompactFilterBuilder>,
    StructuredSizedFpRate<CompactFilterBuilder>,
    compact_entries::Describe,
    compact_entries::Details,
    compact_entries::Kernels};

}  // namespace sstfilter
