// User-facing configuration of a Bloom filter policy, with validation.
#ifndef SSTFILTER_FILTER_BLOOM_OPTIONS_H_
#define SSTFILTER_FILTER_BLOOM_OPTIONS_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "filter/bloom_format.h"

namespace sstfilter {

struct BloomOptions {
  // Memory per key, in bits. Must be finite and in (0, kMaxBitsPerKey].
  double bits_per_key = 10.0;
  // When set, overrides bits_per_key with the bits/key that a standard Bloom
  // filter needs for this FP rate (BitsPerKeyForFpRate). Must be in (0, 1).
  std::optional<double> fp_rate;
  // Which encoding new filters are written in. Readers accept every format.
  BloomFormat format = BloomFormat::kLevelDb;
};

// The bits/key the options ask for, or InvalidArgument naming the bad value.
absl::StatusOr<double> ResolveBitsPerKey(const BloomOptions& options);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_OPTIONS_H_
