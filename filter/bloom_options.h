// The options of sstfilter's policy, their validation, and their spelling in
// option strings. One type and one set of messages for every host: the
// LevelDB-shaped policy (filter_policy.h), RocksDB's (table/rocksdb/) and
// the tools all take BloomOptions, and a bad value gets the same message
// whichever way it arrives.
//
// Option strings ("policy ids"):
//   sstfilter.bloom                       (defaults)
//   sstfilter.bloom:<bits_per_key>
//   sstfilter.bloom:<bits_per_key>:<format>
// BloomPolicyId writes one back: ParseBloomPolicyId(BloomPolicyId(o)) == o.
#ifndef SSTFILTER_FILTER_BLOOM_OPTIONS_H_
#define SSTFILTER_FILTER_BLOOM_OPTIONS_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "filter/filter_format.h"

namespace sstfilter {

// The policy's name in option strings, Name() and CompatibilityName().
inline constexpr char kBloomPolicyName[] = "sstfilter.bloom";

struct BloomOptions {
  // Accuracy, as bits per key of a Bloom filter. Must be finite and in
  // (0, kMaxBitsPerKey].
  double bits_per_key = 10.0;
  // When set, overrides bits_per_key with the bits/key that a standard Bloom
  // filter needs for this FP rate (BitsPerKeyForFpRate). Must be in (0, 1).
  std::optional<double> fp_rate;
  // Which encoding new filters are written in. Readers accept every format.
  FilterFormat format = kDefaultFormat;

  bool operator==(const BloomOptions& o) const {
    return bits_per_key == o.bits_per_key && fp_rate == o.fp_rate && format == o.format;
  }
};

// The bits/key the options ask for, or InvalidArgument naming the bad value.
absl::StatusOr<double> ResolveBitsPerKey(const BloomOptions& options);
// The options with fp_rate turned into bits_per_key (and cleared): the form
// a policy keeps. InvalidArgument names a bad value.
absl::StatusOr<BloomOptions> ResolveBloomOptions(const BloomOptions& options);

// Parses a policy id (see the top of this file).
absl::StatusOr<BloomOptions> ParseBloomPolicyId(std::string_view id);
// REQUIRES: options resolved (no fp_rate) and valid.
std::string BloomPolicyId(const BloomOptions& options);

// Strict parsers for one option value given as text.
absl::StatusOr<double> ParseBitsPerKeyValue(std::string_view value);
absl::StatusOr<FilterFormat> ParseFormatValue(std::string_view value);

// Shortest decimal that reads back as exactly the same double.
std::string FormatBitsPerKey(double bits_per_key);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_OPTIONS_H_
