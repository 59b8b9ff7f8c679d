#include "table/rocksdb/policy_id.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "filter/bloom_math.h"
#include "filter/bloom_options.h"

namespace sstfilter {

namespace {

// Debian's Abseil is built with its own string_view type.
absl::string_view AbslView(std::string_view s) { return {s.data(), s.size()}; }

}  // namespace

absl::StatusOr<double> ParseBitsPerKeyValue(std::string_view value) {
  double bits_per_key = 0;
  if (!absl::SimpleAtod(AbslView(value), &bits_per_key)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: bits_per_key '%s' is not a number", kRocksDbBloomPolicyName, value));
  }
  BloomOptions options;
  options.bits_per_key = bits_per_key;
  absl::StatusOr<double> checked = ResolveBitsPerKey(options);
  if (!checked.ok()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: bits_per_key '%s' is out of range; expected a number in (0, %g]",
        kRocksDbBloomPolicyName, value, kMaxBitsPerKey));
  }
  return *checked;
}

absl::StatusOr<BloomFormat> ParseFormatValue(std::string_view value) {
  std::optional<BloomFormat> format = ParseBloomFormat(value);
  if (!format.has_value()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: unknown format '%s'; expected 'leveldb' or 'cache_local'",
        kRocksDbBloomPolicyName, value));
  }
  return *format;
}

absl::StatusOr<BloomPolicyConfig> ParseBloomPolicyId(std::string_view id) {
  std::vector<absl::string_view> parts = absl::StrSplit(AbslView(id), ':');
  if (parts[0] != kRocksDbBloomPolicyName || parts.size() > 3) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "'%s' is not a %s id; expected %s[:<bits_per_key>[:<format>]]", id,
        kRocksDbBloomPolicyName, kRocksDbBloomPolicyName));
  }
  BloomPolicyConfig config;
  if (parts.size() >= 2) {
    absl::StatusOr<double> bits = ParseBitsPerKeyValue(std::string_view(parts[1].data(), parts[1].size()));
    if (!bits.ok()) return bits.status();
    config.bits_per_key = *bits;
  }
  if (parts.size() == 3) {
    absl::StatusOr<BloomFormat> format = ParseFormatValue(std::string_view(parts[2].data(), parts[2].size()));
    if (!format.ok()) return format.status();
    config.format = *format;
  }
  return config;
}

std::string FormatBitsPerKey(double bits_per_key) {
  for (int precision = 6; precision <= 17; ++precision) {
    std::string text = absl::StrFormat("%.*g", precision, bits_per_key);
    double back = 0;
    if (absl::SimpleAtod(text, &back) && back == bits_per_key) return text;
  }
  return absl::StrFormat("%.17g", bits_per_key);
}

std::string BloomPolicyId(const BloomPolicyConfig& config) {
  std::string id =
      absl::StrCat(kRocksDbBloomPolicyName, ":", FormatBitsPerKey(config.bits_per_key));
  if (config.format != BloomFormat::kLevelDb) {
    absl::StrAppend(&id, ":", AbslView(BloomFormatName(config.format)));
  }
  return id;
}

}  // namespace sstfilter
