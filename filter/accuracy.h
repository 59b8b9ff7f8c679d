// How accurate each filter a policy builds is: FilterOptions' bits_per_key,
// or its fp_rate met by each encoding's own model at the filter's size
// (filter/fp_target.h). Policies ask per filter, once its keys are counted.
#ifndef SSTFILTER_FILTER_ACCURACY_H_
#define SSTFILTER_FILTER_ACCURACY_H_

#include <cstddef>
#include <optional>

#include "filter/encoding_id.h"
#include "filter/filter_options.h"
#include "filter/fp_target.h"

namespace sstfilter {

class Accuracy {
 public:
  // REQUIRES: options resolved (ResolveFilterOptions).
  explicit Accuracy(const FilterOptions& options)
      : bits_per_key_(options.bits_per_key) {
    if (options.fp_rate.has_value()) fp_target_.emplace(*options.fp_rate);
  }

  // Bits/key of a filter of num_keys keys in `encoding`.
  double BitsPerKey(EncodingId encoding, size_t num_keys) const {
    return fp_target_.has_value() ? fp_target_->BitsPerKey(encoding, num_keys) : bits_per_key_;
  }
  // The setting of a builder created before its keys are known.
  double NominalBitsPerKey(EncodingId encoding) const {
    return BitsPerKey(encoding, kNominalFilterKeys);
  }
  // Whether the setting depends on the filter's size (an FP target).
  bool PerFilter() const { return fp_target_.has_value(); }

 private:
  double bits_per_key_;
  std::optional<FpTarget> fp_target_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ACCURACY_H_
