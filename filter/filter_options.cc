#include "filter/filter_options.h"

#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "filter/bloom_math.h"

namespace sstfilter {

namespace {

// Debian's Abseil is built with its own string_view type.
absl::string_view AbslView(std::string_view s) { return {s.data(), s.size()}; }
std::string_view StdView(absl::string_view s) { return {s.data(), s.size()}; }

// How a value appears in messages: as given, '' when empty.
std::string Shown(std::string_view value) {
  return value.empty() ? "''" : std::string(value);
}

absl::Status BadValue(std::string_view option, std::string_view value,
                      std::string_view problem) {
  return absl::InvalidArgumentError(absl::StrFormat("%s: %s=%s %s", kBloomPolicyName, option,
                                                    Shown(value), problem));
}

bool BitsPerKeyInRange(double bits_per_key) {
  return std::isfinite(bits_per_key) && bits_per_key > 0 && bits_per_key <= kMaxBitsPerKey;
}

size_t SkipDigits(std::string_view text, size_t i) {
  while (i < text.size() && absl::ascii_isdigit(static_cast<unsigned char>(text[i]))) ++i;
  return i;
}

// The text a bits_per_key may be: an optional '-', then decimal digits with
// an optional fraction and exponent ("10", "7.5", "1e1"), or nan / inf
// (then refused as out of range). absl::SimpleAtod alone also takes "0x10",
// "+10" and surrounding spaces, which no option string means.
bool IsPlainNumber(std::string_view text) {
  if (!text.empty() && text[0] == '-') text.remove_prefix(1);
  if (absl::EqualsIgnoreCase(AbslView(text), "nan") ||
      absl::EqualsIgnoreCase(AbslView(text), "inf")) {
    return true;
  }
  size_t i = SkipDigits(text, 0);
  size_t digits = i;
  if (i < text.size() && text[i] == '.') {
    const size_t fraction = i + 1;
    i = SkipDigits(text, fraction);
    digits += i - fraction;
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t exponent = i + 1;
    if (exponent < text.size() && (text[exponent] == '+' || text[exponent] == '-')) ++exponent;
    i = SkipDigits(text, exponent);
    if (i == exponent) return false;
  }
  return i == text.size();
}

absl::Status BitsPerKeyOutOfRange(std::string_view shown) {
  return BadValue("bits_per_key", shown,
                  absl::StrFormat("is out of range; expected a number in (0, %g]",
                                  kMaxBitsPerKey));
}

absl::Status CompactFromLevelOutOfRange(std::string_view shown) {
  const bool negative = !shown.empty() && shown[0] == '-';
  return BadValue(kCompactFromLevelName, shown,
                  absl::StrFormat("is out of range; expected a level in [0, %d] or %s%s",
                                  kMaxCompactFromLevel, kCompactFromLevelUnset,
                                  negative ? " (flushes always get the fast format)" : ""));
}

// The combination rules of ResolveFilterOptions for compact_from_level.
absl::Status CheckCompactFromLevel(const FilterOptions& options) {
  if (!options.compact_from_level.has_value()) return absl::OkStatus();
  const int level = *options.compact_from_level;
  if (level < 0 || level > kMaxCompactFromLevel) {
    return CompactFromLevelOutOfRange(std::to_string(level));
  }
  if (options.encoding == EncodingId::kCompact) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %s=%d with format=compact: every table is compact already; %s chooses "
        "compact below a fast format (leveldb or cache_local)",
        kBloomPolicyName, kCompactFromLevelName, level, kCompactFromLevelName));
  }
  return absl::OkStatus();
}

absl::Status BadId(std::string_view id, std::string_view problem) {
  return absl::InvalidArgumentError(absl::StrFormat(
      "'%s' is not a %s id%s; expected %s[:<bits_per_key>[:<format>][:%s:<level>]]", id,
      kBloomPolicyName, problem, kBloomPolicyName, kCompactFromLevelName));
}

}  // namespace

absl::StatusOr<double> ResolveBitsPerKey(const FilterOptions& options) {
  if (!options.fp_rate.has_value()) {
    if (!BitsPerKeyInRange(options.bits_per_key)) {
      return BitsPerKeyOutOfRange(FormatBitsPerKey(options.bits_per_key));
    }
    return options.bits_per_key;
  }
  const double p = *options.fp_rate;
  const std::string shown = absl::StrFormat("%g", p);
  if (!(p > 0 && p < 1)) {  // Also rejects NaN.
    return BadValue("fp_rate", shown, "is out of range; expected 0 < fp_rate < 1");
  }
  const double bits_per_key = BitsPerKeyForFpRate(p);
  if (!BitsPerKeyInRange(bits_per_key)) {
    return BadValue("fp_rate", shown,
                    absl::StrFormat("needs too many bits (%g bits/key; at most %g)",
                                    bits_per_key, kMaxBitsPerKey));
  }
  return bits_per_key;
}

absl::StatusOr<FilterOptions> ResolveFilterOptions(const FilterOptions& options) {
  if (!IsKnownEncoding(options.encoding)) {
    return BadValue("format", std::to_string(static_cast<int>(options.encoding)),
                    "is not a EncodingId; expected " + EncodingNameList());
  }
  absl::StatusOr<double> bits_per_key = ResolveBitsPerKey(options);
  if (!bits_per_key.ok()) return bits_per_key.status();
  if (absl::Status s = CheckCompactFromLevel(options); !s.ok()) return s;
  FilterOptions resolved = options;
  resolved.bits_per_key = *bits_per_key;
  resolved.fp_rate.reset();
  return resolved;
}

absl::StatusOr<double> ParseBitsPerKeyValue(std::string_view value) {
  double bits_per_key = 0;
  if (!IsPlainNumber(value) || !absl::SimpleAtod(AbslView(value), &bits_per_key)) {
    return BadValue("bits_per_key", value, "is not a number");
  }
  if (!BitsPerKeyInRange(bits_per_key)) return BitsPerKeyOutOfRange(value);
  return bits_per_key;
}

absl::StatusOr<EncodingId> ParseEncodingValue(std::string_view value) {
  std::optional<EncodingId> format = ParseEncodingName(value);
  if (!format.has_value()) {
    return BadValue("format", value, "is unknown; expected " + EncodingNameList());
  }
  return *format;
}

absl::StatusOr<std::optional<int>> ParseCompactFromLevelValue(std::string_view value) {
  if (value == kCompactFromLevelUnset) return std::nullopt;
  const std::string_view digits = !value.empty() && value[0] == '-' ? value.substr(1) : value;
  if (digits.empty() || SkipDigits(digits, 0) != digits.size()) {
    return BadValue(kCompactFromLevelName, value,
                    absl::StrFormat("is not a level; expected an integer in [0, %d] or %s",
                                    kMaxCompactFromLevel, kCompactFromLevelUnset));
  }
  // A sign is a negative level ("-0" too: levels are written as plain
  // digits, so the value round-trips as written). More digits than any
  // level in range has: out of range, not an overflow.
  int level = 0;
  if (digits.size() != value.size() || digits.size() > 4 || !absl::SimpleAtoi(AbslView(value), &level) || level < 0 ||
      level > kMaxCompactFromLevel) {
    return CompactFromLevelOutOfRange(value);
  }
  return level;
}

std::string FormatCompactFromLevel(const std::optional<int>& level) {
  return level.has_value() ? std::to_string(*level) : kCompactFromLevelUnset;
}

// The fields after the name: <bits_per_key>, then an optional <format>,
// then optional named fields (compact_from_level:<level>), each at most once.
absl::StatusOr<FilterOptions> ParsePolicyId(std::string_view id) {
  std::vector<absl::string_view> parts = absl::StrSplit(AbslView(id), ':');
  if (parts[0] != kBloomPolicyName) return BadId(id, "");
  for (absl::string_view part : parts) {
    if (absl::StrContains(part, '=')) {
      return BadId(id, absl::StrFormat(
                           ": '%s' has an '=' (fields are separated by ':', as in "
                           "%s:2; RocksDB reads '=' in filter_policy as an option map)",
                           StdView(part), kCompactFromLevelName));
    }
  }
  FilterOptions options;
  if (parts.size() >= 2) {
    absl::StatusOr<double> bits = ParseBitsPerKeyValue(StdView(parts[1]));
    if (!bits.ok()) return bits.status();
    options.bits_per_key = *bits;
  }
  size_t i = 2;
  if (i < parts.size() && parts[i] != kCompactFromLevelName) {
    absl::StatusOr<EncodingId> format = ParseEncodingValue(StdView(parts[i]));
    if (!format.ok()) return format.status();
    options.encoding = *format;
    ++i;
  }
  bool level_given = false;
  for (; i < parts.size(); i += 2) {
    if (parts[i] != kCompactFromLevelName) {
      return BadId(id, absl::StrFormat(": unexpected '%s'", StdView(parts[i])));
    }
    if (i + 1 == parts.size()) {
      return BadId(id, absl::StrFormat(": %s needs a value (%s:<level>)",
                                       kCompactFromLevelName, kCompactFromLevelName));
    }
    if (level_given) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: %s is given twice in '%s' (%s, then %s)", kBloomPolicyName,
          kCompactFromLevelName, id, FormatCompactFromLevel(options.compact_from_level),
          Shown(StdView(parts[i + 1]))));
    }
    absl::StatusOr<std::optional<int>> level = ParseCompactFromLevelValue(StdView(parts[i + 1]));
    if (!level.ok()) return level.status();
    options.compact_from_level = *level;
    level_given = true;
  }
  if (absl::Status s = CheckCompactFromLevel(options); !s.ok()) return s;
  return options;
}

std::string FormatBitsPerKey(double bits_per_key) {
  for (int precision = 6; precision <= 17; ++precision) {
    std::string text = absl::StrFormat("%.*g", precision, bits_per_key);
    double back = 0;
    if (absl::SimpleAtod(text, &back) && back == bits_per_key) return text;
  }
  return absl::StrFormat("%.17g", bits_per_key);
}

std::string FormatPolicyId(const FilterOptions& options) {
  std::string id =
      absl::StrCat(kBloomPolicyName, ":", FormatBitsPerKey(options.bits_per_key));
  if (options.encoding != kDefaultEncoding) {
    absl::StrAppend(&id, ":", AbslView(EncodingName(options.encoding)));
  }
  if (options.compact_from_level.has_value()) {
    absl::StrAppend(&id, ":", kCompactFromLevelName, ":", *options.compact_from_level);
  }
  return id;
}

}  // namespace sstfilter
