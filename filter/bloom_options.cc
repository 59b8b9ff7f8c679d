#include "filter/bloom_options.h"

#include <cmath>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "filter/bloom_math.h"

namespace sstfilter {

namespace {

absl::Status CheckBitsPerKey(double bits_per_key, const char* source) {
  if (!std::isfinite(bits_per_key) || bits_per_key <= 0 ||
      bits_per_key > kMaxBitsPerKey) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: bits_per_key=%g is out of range; expected a number in (0, %g]",
        source, bits_per_key, kMaxBitsPerKey));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<double> ResolveBitsPerKey(const BloomOptions& options) {
  if (!options.fp_rate.has_value()) {
    absl::Status s = CheckBitsPerKey(options.bits_per_key, "bloom options");
    if (!s.ok()) return s;
    return options.bits_per_key;
  }
  const double p = *options.fp_rate;
  if (!(p > 0 && p < 1)) {  // Also rejects NaN.
    return absl::InvalidArgumentError(absl::StrFormat(
        "bloom options: fp_rate=%g is out of range; expected 0 < fp_rate < 1",
        p));
  }
  const double bits_per_key = BitsPerKeyForFpRate(p);
  absl::Status s = CheckBitsPerKey(
      bits_per_key, absl::StrFormat("fp_rate=%g needs too many bits", p).c_str());
  if (!s.ok()) return s;
  return bits_per_key;
}

}  // namespace sstfilter
