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
#include "filter/encodings.h"

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
  return std::isfinite(bits_per_key) && bits_per_key >= kMinBitsPerKey &&
         bits_per_key <= kMaxBitsPerKey;
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
                  absl::StrFormat("is out of range; expected a number in [%g, %g]",
                                  kMinBitsPerKey, kMaxBitsPerKey));
}

absl::Status CompactFromLevelOutOfRange(std::string_view shown) {
  const bool negative = !shown.empty() && shown[0] == '-';
  return BadValue(kCompactFromLevelName, shown,
                  absl::StrFormat("is out of range; expected a level in [0, %d] or %s%s",
                                  kMaxCompactFromLevel, kCompactFromLevelUnset,
                                  negative ? " (flushes always get the fast encoding)" : ""));
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
        "%s: %s=%d with %s=compact: every table is compact already; %s chooses "
        "compact below a fast encoding (leveldb or cache_local)",
        kBloomPolicyName, kCompactFromLevelName, level, kEncodingKey, kCompactFromLevelName));
  }
  return absl::OkStatus();
}

absl::Status FpRateOutOfRange(std::string_view shown) {
  return BadValue(kFpRateName, shown, "is out of range; expected a number in (0, 1)");
}

// An FP target is refused if some encoding the options write cannot reach it
// at any setting for a small filter (kReachCheckKeys keys). Larger filters
// of the LevelDB format, whose least FP grows with their size, get the
// least they can have (filter/fp_target.h).
constexpr size_t kReachCheckKeys = 1000;

absl::Status CheckFpReachable(double fp_rate, EncodingId encoding) {
  const double least =
      EncodingInfoOf(encoding).expected_fp_rate(kReachCheckKeys, kMaxBitsPerKey);
  if (least <= fp_rate) return absl::OkStatus();
  return BadValue(kFpRateName, FormatFpRate(fp_rate),
                  absl::StrFormat("is below what %s=%s reaches at %g bits/key (%g)", kEncodingKey,
                                  EncodingName(encoding), kMaxBitsPerKey, least));
}

// bits_per_key in range, or, when fp_rate replaces it, fp_rate in range and
// reachable by every encoding the options write.
absl::Status CheckAccuracy(const FilterOptions& options) {
  if (options.optimize_levels && options.fp_rate.has_value()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %s with %s=%s: optimize_levels spends bits_per_key on average over the tree "
        "and sets each table's FP itself; give bits_per_key instead",
        kBloomPolicyName, kOptimizeLevelsName, kFpRateName, FormatFpRate(options.fp_rate)));
  }
  if (!options.fp_rate.has_value()) {
    if (BitsPerKeyInRange(options.bits_per_key)) return absl::OkStatus();
    return BitsPerKeyOutOfRange(FormatBitsPerKey(options.bits_per_key));
  }
  const double p = *options.fp_rate;
  if (!(p > 0 && p < 1)) return FpRateOutOfRange(FormatFpRate(p));  // Also rejects NaN.
  if (absl::Status s = CheckFpReachable(p, options.encoding); !s.ok()) return s;
  if (!options.compact_from_level.has_value()) return absl::OkStatus();
  return CheckFpReachable(p, EncodingId::kCompact);
}

absl::Status BudgetOutOfRange(std::string_view shown) {
  return BadValue(kBudgetName, shown,
                  absl::StrFormat("is out of range; expected MiB in [%g, %.0f]", kMinBudgetMb,
                                  kMaxBudgetMb));
}

bool BudgetInRange(double mb) { return mb >= kMinBudgetMb && mb <= kMaxBudgetMb; }

absl::Status ShareOutOfRange(std::string_view name, std::string_view shown,
                             bool zero_allowed) {
  return BadValue(name, shown,
                  zero_allowed
                      ? std::string("is out of range; expected a share in [0, 1]")
                      : absl::StrFormat("is out of range; expected a share in [%g, 1]",
                                        kMinCacheShare));
}

bool CacheShareInRange(double share) { return share >= kMinCacheShare && share <= 1; }
bool HitShareInRange(double share) { return share >= 0 && share <= 1; }

// cache_aware refines optimize_levels; the shares refine cache_aware.
absl::Status CheckCacheOptions(const FilterOptions& options) {
  if (options.cache_share.has_value() && !CacheShareInRange(*options.cache_share)) {
    return ShareOutOfRange(kCacheShareName, FormatShare(options.cache_share), false);
  }
  if (options.hit_share.has_value() && !HitShareInRange(*options.hit_share)) {
    return ShareOutOfRange(kHitShareName, FormatShare(options.hit_share), true);
  }
  const char* lacking = !options.cache_aware && options.cache_share.has_value() ? kCacheShareName
                        : !options.cache_aware && options.hit_share.has_value() ? kHitShareName
                                                                                : nullptr;
  if (lacking != nullptr) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %s without %s: the share describes the block cache the filters are sized for; "
        "add %s (sstfilter.bloom:10:%s:%s:%s:0.5)",
        kBloomPolicyName, lacking, kCacheAwareName, kCacheAwareName, kOptimizeLevelsName,
        kCacheAwareName, lacking));
  }
  if (!options.cache_aware || options.optimize_levels) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrFormat(
      "%s: %s without %s: the cache's budget is spent by the per-level allocation; add %s "
      "(sstfilter.bloom:10:%s:%s)",
      kBloomPolicyName, kCacheAwareName, kOptimizeLevelsName, kOptimizeLevelsName,
      kOptimizeLevelsName, kCacheAwareName));
}

// access_aware and budget_mb refine optimize_levels.
absl::Status CheckPerLevelOptions(const FilterOptions& options) {
  if (options.budget_mb.has_value()) {
    const double mb = *options.budget_mb;
    if (!BudgetInRange(mb)) return BudgetOutOfRange(FormatBudget(mb));
    if (!options.optimize_levels) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: %s without %s: the budget is spent by the per-level allocation; add %s "
          "(sstfilter.bloom:10:%s:%s:%s)",
          kBloomPolicyName, kBudgetName, kOptimizeLevelsName, kOptimizeLevelsName,
          kOptimizeLevelsName, kBudgetName, FormatBudget(mb)));
    }
  }
  if (options.access_aware && !options.optimize_levels) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %s without %s: access-aware allocation weighs the per-level allocation by "
        "traffic; add %s (sstfilter.bloom:10:%s:%s)",
        kBloomPolicyName, kAccessAwareName, kOptimizeLevelsName, kOptimizeLevelsName,
        kOptimizeLevelsName, kAccessAwareName));
  }
  return CheckCacheOptions(options);
}

absl::Status BadId(std::string_view id, std::string_view problem) {
  return absl::InvalidArgumentError(absl::StrFormat(
      "'%s' is not a %s id%s; expected "
      "%s[:<bits_per_key>|:%s:<p>][:<encoding>][:%s:<level>][:%s[:%s][:%s:<MiB>]"
      "[:%s[:%s:<F>][:%s:<F>]]]",
      id, kBloomPolicyName, problem, kBloomPolicyName, kFpRateName, kCompactFromLevelName,
      kOptimizeLevelsName, kAccessAwareName, kBudgetName, kCacheAwareName, kCacheShareName,
      kHitShareName));
}

}  // namespace

absl::StatusOr<FilterOptions> ResolveFilterOptions(const FilterOptions& options) {
  if (!IsKnownEncoding(options.encoding)) {
    return BadValue(kEncodingKey, std::to_string(static_cast<int>(options.encoding)),
                    "is not an EncodingId; expected " + EncodingNameList());
  }
  if (absl::Status s = CheckCompactFromLevel(options); !s.ok()) return s;
  if (absl::Status s = CheckAccuracy(options); !s.ok()) return s;
  if (absl::Status s = CheckPerLevelOptions(options); !s.ok()) return s;
  return options;
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
  std::optional<EncodingId> encoding = ParseEncodingName(value);
  if (!encoding.has_value()) {
    return BadValue(kEncodingKey, value, "is unknown; expected " + EncodingNameList());
  }
  return *encoding;
}

absl::StatusOr<std::optional<double>> ParseFpRateValue(std::string_view value) {
  if (value == kFpRateUnset) return std::nullopt;
  double fp_rate = 0;
  if (!IsPlainNumber(value) || !absl::SimpleAtod(AbslView(value), &fp_rate)) {
    return BadValue(kFpRateName, value,
                    absl::StrFormat("is not a number; expected one in (0, 1) or %s", kFpRateUnset));
  }
  if (!(fp_rate > 0 && fp_rate < 1)) return FpRateOutOfRange(value);
  return fp_rate;
}

std::string FormatFpRate(const std::optional<double>& fp_rate) {
  return fp_rate.has_value() ? FormatBitsPerKey(*fp_rate) : kFpRateUnset;
}

namespace {

absl::StatusOr<bool> ParseFlagValue(std::string_view name, std::string_view value) {
  if (value == "true") return true;
  if (value == "false") return false;
  return BadValue(name, value, "is not a boolean; expected true or false");
}

}  // namespace

absl::StatusOr<bool> ParseOptimizeLevelsValue(std::string_view value) {
  return ParseFlagValue(kOptimizeLevelsName, value);
}

absl::StatusOr<bool> ParseAccessAwareValue(std::string_view value) {
  return ParseFlagValue(kAccessAwareName, value);
}

absl::StatusOr<std::optional<double>> ParseBudgetValue(std::string_view value) {
  if (value == kBudgetUnset) return std::nullopt;
  double mb = 0;
  if (!IsPlainNumber(value) || !absl::SimpleAtod(AbslView(value), &mb)) {
    return BadValue(kBudgetName, value,
                    absl::StrFormat("is not a number; expected MiB in [%g, %.0f] or %s",
                                    kMinBudgetMb, kMaxBudgetMb, kBudgetUnset));
  }
  if (!BudgetInRange(mb)) return BudgetOutOfRange(value);
  return mb;
}

absl::StatusOr<bool> ParseCacheAwareValue(std::string_view value) {
  return ParseFlagValue(kCacheAwareName, value);
}

namespace {

absl::StatusOr<std::optional<double>> ParseShare(std::string_view name, std::string_view value,
                                                 bool zero_allowed) {
  if (value == kShareUnset) return std::nullopt;
  double share = 0;
  if (!IsPlainNumber(value) || !absl::SimpleAtod(AbslView(value), &share)) {
    return BadValue(name, value,
                    absl::StrFormat("is not a number; expected a share in [%g, 1] or %s",
                                    zero_allowed ? 0.0 : kMinCacheShare, kShareUnset));
  }
  const bool in_range = zero_allowed ? HitShareInRange(share) : CacheShareInRange(share);
  if (!in_range) return ShareOutOfRange(name, value, zero_allowed);
  return share + 0.0;  // -0 is 0: written back as 0.
}

}  // namespace

absl::StatusOr<std::optional<double>> ParseCacheShareValue(std::string_view value) {
  return ParseShare(kCacheShareName, value, false);
}

absl::StatusOr<std::optional<double>> ParseHitShareValue(std::string_view value) {
  return ParseShare(kHitShareName, value, true);
}

std::string FormatShare(const std::optional<double>& share) {
  return share.has_value() ? FormatBitsPerKey(*share) : kShareUnset;
}

std::string FormatBudget(const std::optional<double>& budget_mb) {
  return budget_mb.has_value() ? FormatBitsPerKey(*budget_mb) : kBudgetUnset;
}

std::string FormatFlagValue(const bool& flag) {
  return flag ? "true" : "false";
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
  // Leading zeros are the same level ("00006" is 6).
  std::string_view significant = digits;
  while (significant.size() > 1 && significant[0] == '0') significant.remove_prefix(1);
  int level = 0;
  if (digits.size() != value.size() || significant.size() > 4 ||
      !absl::SimpleAtoi(AbslView(significant), &level) || level > kMaxCompactFromLevel) {
    return CompactFromLevelOutOfRange(value);
  }
  return level;
}

std::string FormatCompactFromLevel(const std::optional<int>& level) {
  return level.has_value() ? std::to_string(*level) : kCompactFromLevelUnset;
}

namespace {

using IdParts = std::vector<absl::string_view>;

// The value after parts[i] (a named field's), or an error naming the field.
absl::StatusOr<std::string_view> NamedValue(std::string_view id, const IdParts& parts, size_t i,
                                            std::string_view placeholder) {
  if (i + 1 < parts.size()) return StdView(parts[i + 1]);
  return BadId(id, absl::StrFormat(": %s needs a value (%s:%s)", StdView(parts[i]),
                                   StdView(parts[i]), placeholder));
}

// [<bits_per_key> | fp_rate:<p>] at parts[*i]; advances *i past it.
absl::Status ReadAccuracy(std::string_view id, const IdParts& parts, size_t* i,
                          FilterOptions* options) {
  if (*i == parts.size()) return absl::OkStatus();
  if (parts[*i] != kFpRateName) {
    absl::StatusOr<double> bits = ParseBitsPerKeyValue(StdView(parts[*i]));
    if (!bits.ok()) return bits.status();
    options->bits_per_key = *bits;
    ++*i;
    return absl::OkStatus();
  }
  absl::StatusOr<std::string_view> value = NamedValue(id, parts, *i, "<p>");
  if (!value.ok()) return value.status();
  absl::StatusOr<std::optional<double>> fp = ParseFpRateValue(*value);
  if (!fp.ok()) return fp.status();
  if (!fp->has_value()) return FpRateOutOfRange(*value);
  options->fp_rate = *fp;
  *i += 2;
  return absl::OkStatus();
}

// A field that only follows optimize_levels.
bool IsLevelRefinement(absl::string_view part) {
  return part == kAccessAwareName || part == kBudgetName || part == kCacheAwareName ||
         part == kCacheShareName || part == kHitShareName;
}

// [<encoding>] at parts[*i]; advances *i past it.
absl::Status ReadEncoding(std::string_view id, const IdParts& parts, size_t* i,
                        FilterOptions* options) {
  if (*i == parts.size() || parts[*i] == kCompactFromLevelName ||
      parts[*i] == kOptimizeLevelsName || IsLevelRefinement(parts[*i])) {
    return absl::OkStatus();
  }
  if (parts[*i] == kFpRateName) {
    return BadId(id, absl::StrFormat(": %s takes the place of <bits_per_key>, first after "
                                     "the name (%s:%s:0.01)",
                                     kFpRateName, kBloomPolicyName, kFpRateName));
  }
  absl::StatusOr<EncodingId> encoding = ParseEncodingValue(StdView(parts[*i]));
  if (!encoding.ok()) return encoding.status();
  options->encoding = *encoding;
  ++*i;
  return absl::OkStatus();
}

// (<name>:<F>)? at parts[*i], a share named `name`; advances *i past it.
absl::Status ReadShare(std::string_view id, const IdParts& parts, std::string_view name,
                       size_t* i, std::optional<double>* share) {
  if (*i == parts.size() || StdView(parts[*i]) != name) return absl::OkStatus();
  absl::StatusOr<std::string_view> value = NamedValue(id, parts, *i, "<F>");
  if (!value.ok()) return value.status();
  const bool hit = name == kHitShareName;
  absl::StatusOr<std::optional<double>> parsed =
      hit ? ParseHitShareValue(*value) : ParseCacheShareValue(*value);
  if (!parsed.ok()) return parsed.status();
  if (!parsed->has_value()) return ShareOutOfRange(name, *value, hit);
  *share = *parsed;
  *i += 2;
  return absl::OkStatus();
}

// optimize_levels (access_aware)? (budget_mb:<MiB>)?
// (cache_aware (cache_share:<F>)? (hit_share:<F>)?)? from parts[i] to the
// end.
absl::Status ReadLevelFlags(std::string_view id, const IdParts& parts, size_t i,
                            FilterOptions* options) {
  options->optimize_levels = true;
  ++i;
  if (i < parts.size() && parts[i] == kAccessAwareName) {
    options->access_aware = true;
    ++i;
  }
  if (i < parts.size() && parts[i] == kBudgetName) {
    absl::StatusOr<std::string_view> value = NamedValue(id, parts, i, "<MiB>");
    if (!value.ok()) return value.status();
    absl::StatusOr<std::optional<double>> mb = ParseBudgetValue(*value);
    if (!mb.ok()) return mb.status();
    if (!mb->has_value()) return BudgetOutOfRange(*value);
    options->budget_mb = *mb;
    i += 2;
  }
  if (i < parts.size() && parts[i] == kCacheAwareName) {
    options->cache_aware = true;
    ++i;
    absl::Status s = ReadShare(id, parts, kCacheShareName, &i, &options->cache_share);
    if (s.ok()) s = ReadShare(id, parts, kHitShareName, &i, &options->hit_share);
    if (!s.ok()) return s;
  }
  if (i == parts.size()) return absl::OkStatus();
  const absl::string_view part = parts[i];
  const bool repeated = part == kOptimizeLevelsName ||
                        (part == kAccessAwareName && options->access_aware) ||
                        (part == kBudgetName && options->budget_mb.has_value()) ||
                        (part == kCacheAwareName && options->cache_aware) ||
                        (part == kCacheShareName && options->cache_share.has_value()) ||
                        (part == kHitShareName && options->hit_share.has_value());
  if (repeated) {
    return absl::InvalidArgumentError(absl::StrFormat("%s: %s is given twice in '%s'",
                                                      kBloomPolicyName, StdView(part), id));
  }
  return BadId(id, absl::StrFormat(": %s comes last and takes no value (but for %s, "
                                   "%s:<MiB> and %s[:%s:<F>][:%s:<F>] after it, in that order)",
                                   kOptimizeLevelsName, kAccessAwareName, kBudgetName,
                                   kCacheAwareName, kCacheShareName, kHitShareName));
}

// (compact_from_level:<level>)? (optimize_levels (access_aware)?)? from
// parts[i] to the end.
absl::Status ReadNamedFields(std::string_view id, const IdParts& parts, size_t i,
                             FilterOptions* options) {
  bool level_given = false;
  for (; i < parts.size(); i += 2) {
    if (parts[i] == kOptimizeLevelsName) return ReadLevelFlags(id, parts, i, options);
    if (IsLevelRefinement(parts[i])) {
      return BadId(id, absl::StrFormat(": %s comes last, after %s", StdView(parts[i]),
                                       kOptimizeLevelsName));
    }
    if (parts[i] != kCompactFromLevelName) {
      return BadId(id, absl::StrFormat(": unexpected '%s'", StdView(parts[i])));
    }
    absl::StatusOr<std::string_view> value = NamedValue(id, parts, i, "<level>");
    if (!value.ok()) return value.status();
    if (level_given) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: %s is given twice in '%s' (%s, then %s)", kBloomPolicyName,
          kCompactFromLevelName, id, FormatCompactFromLevel(options->compact_from_level),
          Shown(*value)));
    }
    absl::StatusOr<std::optional<int>> level = ParseCompactFromLevelValue(*value);
    if (!level.ok()) return level.status();
    options->compact_from_level = *level;
    level_given = true;
  }
  return absl::OkStatus();
}

}  // namespace

// The fields after the name: the accuracy (<bits_per_key> or fp_rate:<p>),
// then an optional <encoding>, then named fields, each at most once.
absl::StatusOr<FilterOptions> ParsePolicyId(std::string_view id) {
  const IdParts parts = absl::StrSplit(AbslView(id), ':');
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
  size_t i = 1;
  absl::Status s = ReadAccuracy(id, parts, &i, &options);
  if (s.ok()) s = ReadEncoding(id, parts, &i, &options);
  if (s.ok()) s = ReadNamedFields(id, parts, i, &options);
  if (s.ok()) s = CheckCompactFromLevel(options);
  if (s.ok()) s = CheckAccuracy(options);
  if (s.ok()) s = CheckPerLevelOptions(options);
  if (!s.ok()) return s;
  return options;
}

std::vector<std::string> StatedOptions(std::string_view id) {
  const IdParts parts = absl::StrSplit(AbslView(id), ':');
  std::vector<std::string> stated;
  for (size_t i = 1; i < parts.size(); ++i) {
    const absl::string_view part = parts[i];
    const bool takes_value = part == kFpRateName || part == kCompactFromLevelName ||
                             part == kBudgetName || part == kCacheShareName ||
                             part == kHitShareName;
    if (takes_value || part == kOptimizeLevelsName || part == kAccessAwareName ||
        part == kCacheAwareName) {
      stated.emplace_back(part);
      if (takes_value) ++i;
    } else if (i == 1) {
      stated.emplace_back("bits_per_key");
    } else {
      stated.emplace_back(kEncodingKey);
    }
  }
  return stated;
}

std::optional<double> ParsePlainNumber(std::string_view text) {
  double value = 0;
  if (!IsPlainNumber(text) || !absl::SimpleAtod(AbslView(text), &value)) return std::nullopt;
  return value + 0.0;  // -0 + 0 is +0.
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
  std::string id = options.fp_rate.has_value()
                       ? absl::StrCat(kBloomPolicyName, ":", kFpRateName, ":",
                                      FormatFpRate(options.fp_rate))
                       : absl::StrCat(kBloomPolicyName, ":", FormatBitsPerKey(options.bits_per_key));
  if (options.encoding != kDefaultEncoding) {
    absl::StrAppend(&id, ":", AbslView(EncodingName(options.encoding)));
  }
  if (options.compact_from_level.has_value()) {
    absl::StrAppend(&id, ":", kCompactFromLevelName, ":", *options.compact_from_level);
  }
  if (options.optimize_levels) absl::StrAppend(&id, ":", kOptimizeLevelsName);
  if (options.access_aware) absl::StrAppend(&id, ":", kAccessAwareName);
  if (options.budget_mb.has_value()) {
    absl::StrAppend(&id, ":", kBudgetName, ":", FormatBudget(options.budget_mb));
  }
  if (options.cache_aware) absl::StrAppend(&id, ":", kCacheAwareName);
  if (options.cache_share.has_value()) {
    absl::StrAppend(&id, ":", kCacheShareName, ":", FormatShare(options.cache_share));
  }
  if (options.hit_share.has_value()) {
    absl::StrAppend(&id, ":", kHitShareName, ":", FormatShare(options.hit_share));
  }
  return id;
}

}  // namespace sstfilter
