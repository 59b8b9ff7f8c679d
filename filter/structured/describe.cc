#include "filter/structured/describe.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "filter/structured/tagged_bloom.h"

namespace sstfilter {

FilterDescription DescribeUnstructured(std::string_view filter, unsigned char body,
                                       std::string_view name) {
  if (body == 0) {
    return FilterDescription::Fixed(
        FilterState::kMatchEverything,
        absl::StrCat(std::string(name), ", damaged trailer (reads as may-match)"));
  }
  return DescribeTaggedBloom(filter, name);
}

std::string BuildMemoryPerKey(size_t temp_bytes, size_t num_keys, std::string_view parts) {
  return absl::StrCat(
      absl::StrFormat("%.0f bits/key while building", double(temp_bytes) * 8 / double(num_keys)),
      std::string(parts));
}

PlanDetails UnstructuredPlanDetails(double target_fp_rate) {
  PlanDetails details;
  details.fp_parts = {{"  target (cache-local Bloom)", absl::StrFormat("%.6g", target_fp_rate)}};
  details.layout = {{"body", "cache-local Bloom (smaller for these keys)"}};
  return details;
}

}  // namespace sstfilter
