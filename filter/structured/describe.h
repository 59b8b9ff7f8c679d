// The parts of a structured encoding's EncodingInfo (encoding_info.h) that
// its frame decides (structured/frame.h): which body a plan or a filter
// has, the Bloom bodies' FP models and descriptions, and damaged bytes.
// The encoding supplies what its structured body alone says.
#ifndef SSTFILTER_FILTER_STRUCTURED_DESCRIBE_H_
#define SSTFILTER_FILTER_STRUCTURED_DESCRIBE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "filter/encoding_info.h"
#include "filter/structured/frame.h"

namespace sstfilter {

// EncodingInfo::expected_fp_rate and sized_fp_rate: the model of the filter
// Builder plans for n keys (Builder::PlannedFpRate, structured/builder.h).
template <typename Builder>
double StructuredExpectedFpRate(size_t num_keys, double bits_per_key) {
  return Builder(bits_per_key).PlannedFpRate(num_keys);
}
template <typename Builder>
double StructuredSizedFpRate(size_t num_keys, size_t bytes, double bits_per_key) {
  return Builder(bits_per_key).PlannedFpRate(num_keys, bytes);
}

// A filter that has no structured body (`body`: its reader's body(), 0
// when the bytes were not understood): its Bloom body, labelled
// "<name> (small) ..." or "<name> (fallback) ...", or damaged bytes, which
// read as may-match.
FilterDescription DescribeUnstructured(std::string_view filter, unsigned char body,
                                       std::string_view name);

// EncodingInfo::describe: describe_body(shape) for a structured body.
template <typename Reader, typename DescribeBody>
FilterDescription DescribeStructured(std::string_view filter, std::string_view name,
                                     DescribeBody describe_body) {
  const Reader r(filter);
  if (r.body() == kStructuredBody) return describe_body(r.shape());
  return DescribeUnstructured(filter, r.body(), name);
}

// PlanDetails' layout lines.
using PlanLayout = decltype(PlanDetails::layout);

// The "build memory" line's value: temp_bytes (the most a build holds
// besides its output) in bits per key, then `parts` (what they are).
std::string BuildMemoryPerKey(size_t temp_bytes, size_t num_keys, std::string_view parts);

// EncodingInfo::plan_details: the FP rate the bits/key aims at (the
// cache-local Bloom filter's at that setting), then layout(shape) for a
// structured body, or the Bloom body's line.
PlanDetails UnstructuredPlanDetails(double target_fp_rate);
template <typename Builder, typename Layout>
PlanDetails StructuredPlanDetails(size_t num_keys, double bits_per_key, double target_fp_rate,
                                  Layout layout) {
  PlanDetails details = UnstructuredPlanDetails(target_fp_rate);
  if (const auto shape = Builder(bits_per_key).PlannedShape(num_keys)) {
    details.layout = layout(*shape, num_keys);
  }
  return details;
}

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_STRUCTURED_DESCRIBE_H_
