#include "filter/option_fields.h"

#include <iterator>
#include <optional>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "filter/bloom_math.h"
#include "filter/encoding_id.h"
#include "filter/option_values.h"

namespace sstfilter {

namespace {

// ---- Values: each kind's text and range ----

absl::Status BitsOutOfRange(std::string_view shown) {
  return BadOptionValue("bits_per_key", shown,
                        absl::StrFormat("is out of range; expected a number in [%g, %g]",
                                        kMinBitsPerKey, kMaxBitsPerKey));
}

absl::Status FpRateOutOfRange(std::string_view shown) {
  return BadOptionValue(kFpRateName, shown, "is out of range; expected a number in (0, 1)");
}

absl::Status BudgetOutOfRange(std::string_view shown) {
  return BadOptionValue(kBudgetName, shown,
                        absl::StrFormat("is out of range; expected MiB in [%g, %.0f]",
                                        kMinBudgetMb, kMaxBudgetMb));
}

absl::Status ShareOutOfRange(std::string_view name, std::string_view shown, double least) {
  return BadOptionValue(name, shown,
                        absl::StrFormat("is out of range; expected a share in [%g, 1]", least));
}
absl::Status CacheShareOutOfRange(std::string_view shown) {
  return ShareOutOfRange(kCacheShareName, shown, kMinCacheShare);
}
absl::Status HitShareOutOfRange(std::string_view shown) {
  return ShareOutOfRange(kHitShareName, shown, 0);
}

absl::Status RebuildOutOfRange(std::string_view shown) {
  return BadOptionValue(kRebuildName, shown,
                        absl::StrFormat("is out of range; expected MiB a second in [0, %.0f] (0: "
                                        "no rewrites)",
                                        kMaxRebuildMbPerSecond));
}

absl::Status LevelOutOfRange(std::string_view shown) {
  const bool negative = !shown.empty() && shown[0] == '-';
  return BadOptionValue(kCompactFromLevelName, shown,
                        absl::StrFormat("is out of range; expected a level in [0, %d] or %s%s",
                                        kMaxCompactFromLevel, kCompactFromLevelUnset,
                                        negative ? " (flushes always get the fast encoding)" : ""));
}

// A number in [least, most] (or, open, in (least, most)), or `unset`
// (nullopt) where `unset` is not empty.
absl::StatusOr<std::optional<double>> ParseNumber(std::string_view name, std::string_view value,
                                                  std::string_view unset, std::string_view range,
                                                  bool (*in_range)(double),
                                                  absl::Status (*out_of_range)(std::string_view)) {
  if (!unset.empty() && value == unset) return std::nullopt;
  const std::optional<double> number = ParsePlainNumber(value);
  if (!number.has_value()) {
    return BadOptionValue(name, value,
                          absl::StrFormat("is not a number; expected %s%s%s", range,
                                          unset.empty() ? "" : " or ", unset));
  }
  if (!in_range(*number)) return out_of_range(value);
  return number;
}

bool BitsInRange(double x) { return x >= kMinBitsPerKey && x <= kMaxBitsPerKey; }
bool FpInRange(double x) { return x > 0 && x < 1; }
bool BudgetInRange(double x) { return x >= kMinBudgetMb && x <= kMaxBudgetMb; }
bool CacheShareInRange(double x) { return x >= kMinCacheShare && x <= 1; }
bool HitShareInRange(double x) { return x >= 0 && x <= 1; }
bool RebuildInRange(double x) { return x >= 0 && x <= kMaxRebuildMbPerSecond; }

absl::StatusOr<bool> ParseFlag(std::string_view name, std::string_view value) {
  if (value == "true") return true;
  if (value == "false") return false;
  return BadOptionValue(name, value, "is not a boolean; expected true or false");
}

std::string FormatOptional(const std::optional<double>& x, std::string_view unset) {
  return x.has_value() ? FormatBitsPerKey(*x) : std::string(unset);
}

// ---- The fields ----

absl::Status ParseBits(std::string_view value, FilterOptions* o) {
  absl::StatusOr<double> bits = ParseBitsPerKeyValue(value);
  if (!bits.ok()) return bits.status();
  o->bits_per_key = *bits;
  return absl::OkStatus();
}

absl::Status ParseFormat(std::string_view value, FilterOptions* o) {
  absl::StatusOr<EncodingId> encoding = ParseEncodingValue(value);
  if (!encoding.ok()) return encoding.status();
  o->encoding = *encoding;
  return absl::OkStatus();
}

absl::Status ParseLevel(std::string_view value, FilterOptions* o) {
  if (value == kCompactFromLevelUnset) {
    o->per_level.compact_from_level.reset();
    return absl::OkStatus();
  }
  const std::string_view digits = !value.empty() && value[0] == '-' ? value.substr(1) : value;
  size_t end = 0;
  while (end < digits.size() && absl::ascii_isdigit(static_cast<unsigned char>(digits[end]))) {
    ++end;
  }
  if (digits.empty() || end != digits.size()) {
    return BadOptionValue(kCompactFromLevelName, value,
                          absl::StrFormat("is not a level; expected an integer in [0, %d] or %s",
                                          kMaxCompactFromLevel, kCompactFromLevelUnset));
  }
  // A sign is a negative level ("-0" too: levels are written as plain
  // digits, so the value round-trips as written). Leading zeros are the
  // same level ("00006" is 6); more digits than any level in range has is
  // out of range, not an overflow.
  std::string_view significant = digits;
  while (significant.size() > 1 && significant[0] == '0') significant.remove_prefix(1);
  int level = 0;
  if (digits.size() != value.size() || significant.size() > 4 ||
      !absl::SimpleAtoi(absl::string_view(significant.data(), significant.size()), &level) ||
      level > kMaxCompactFromLevel) {
    return LevelOutOfRange(value);
  }
  o->per_level.compact_from_level = level;
  return absl::OkStatus();
}

// A field's value in *o, by its member in FilterOptions or in its
// per-level part.
template <typename T>
T& At(FilterOptions* o, T FilterOptions::*field) {
  return o->*field;
}
template <typename T>
T& At(FilterOptions* o, T PerLevelOptions::*field) {
  return o->per_level.*field;
}

// An optional number field: `Field` is its member.
template <auto Field>
absl::Status ParseOptionalNumber(std::string_view name, std::string_view value,
                                 std::string_view unset, std::string_view range,
                                 bool (*in_range)(double),
                                 absl::Status (*out_of_range)(std::string_view), FilterOptions* o) {
  absl::StatusOr<std::optional<double>> x =
      ParseNumber(name, value, unset, range, in_range, out_of_range);
  if (!x.ok()) return x.status();
  At(o, Field) = *x;
  return absl::OkStatus();
}

template <auto Field>
absl::Status ParseFlagField(std::string_view name, std::string_view value, FilterOptions* o) {
  absl::StatusOr<bool> x = ParseFlag(name, value);
  if (!x.ok()) return x.status();
  At(o, Field) = *x;
  return absl::OkStatus();
}

const OptionField kFields[] = {
    {"bits_per_key", IdForm::kAccuracy, "<bits_per_key>", OptionHost::kEvery, "", "", "", true,
     &ParseBits, [](const FilterOptions& o) { return FormatBitsPerKey(o.bits_per_key); },
     [](const FilterOptions& o) { return !o.fp_rate.has_value(); }, nullptr},
    {kFpRateName, IdForm::kAccuracy, "<p>", OptionHost::kEvery, "", "", "", true,
     [](std::string_view v, FilterOptions* o) {
       return ParseOptionalNumber<&FilterOptions::fp_rate>(kFpRateName, v, kFpRateUnset,
                                                           "one in (0, 1)", &FpInRange,
                                                           &FpRateOutOfRange, o);
     },
     [](const FilterOptions& o) { return FormatOptional(o.fp_rate, kFpRateUnset); },
     [](const FilterOptions& o) { return o.fp_rate.has_value(); }, &FpRateOutOfRange},
    {kEncodingKey, IdForm::kEncoding, "<encoding>", OptionHost::kEvery, "", "", "", true,
     &ParseFormat, [](const FilterOptions& o) { return std::string(EncodingName(o.encoding)); },
     [](const FilterOptions& o) { return o.encoding != kDefaultEncoding; }, nullptr},
    {kCompactFromLevelName, IdForm::kNamed, "<level>", OptionHost::kTableAware,
     "or choose format=compact for every table", "", "", true, &ParseLevel,
     [](const FilterOptions& o) {
       return o.per_level.compact_from_level.has_value()
                  ? std::to_string(*o.per_level.compact_from_level)
                  : std::string(kCompactFromLevelUnset);
     },
     [](const FilterOptions& o) { return o.per_level.compact_from_level.has_value(); }, nullptr},
    {kOptimizeLevelsName, IdForm::kFlag, "", OptionHost::kTableAware, "", "", "", true,
     [](std::string_view v, FilterOptions* o) {
       return ParseFlagField<&PerLevelOptions::optimize_levels>(kOptimizeLevelsName, v, o);
     },
     [](const FilterOptions& o) {
       return std::string(o.per_level.optimize_levels ? "true" : "false");
     },
     [](const FilterOptions& o) { return o.per_level.optimize_levels; }, nullptr},
    {kAccessAwareName, IdForm::kFlag, "", OptionHost::kTableAware, "", kOptimizeLevelsName,
     "access-aware allocation weighs the per-level allocation by traffic", false,
     [](std::string_view v, FilterOptions* o) {
       return ParseFlagField<&PerLevelOptions::access_aware>(kAccessAwareName, v, o);
     },
     [](const FilterOptions& o) {
       return std::string(o.per_level.access_aware ? "true" : "false");
     },
     [](const FilterOptions& o) { return o.per_level.access_aware; }, nullptr},
    {kBudgetName, IdForm::kNamed, "<MiB>", OptionHost::kTableAware, "", kOptimizeLevelsName,
     "the budget is spent by the per-level allocation", false,
     [](std::string_view v, FilterOptions* o) {
       return ParseOptionalNumber<&PerLevelOptions::budget_mb>(
           kBudgetName, v, kBudgetUnset,
           absl::StrFormat("MiB in [%g, %.0f]", kMinBudgetMb, kMaxBudgetMb), &BudgetInRange,
           &BudgetOutOfRange, o);
     },
     [](const FilterOptions& o) { return FormatOptional(o.per_level.budget_mb, kBudgetUnset); },
     [](const FilterOptions& o) { return o.per_level.budget_mb.has_value(); }, &BudgetOutOfRange},
    {kCacheAwareName, IdForm::kFlag, "", OptionHost::kTableAware, "", kOptimizeLevelsName,
     "the cache's budget is spent by the per-level allocation", false,
     [](std::string_view v, FilterOptions* o) {
       return ParseFlagField<&PerLevelOptions::cache_aware>(kCacheAwareName, v, o);
     },
     [](const FilterOptions& o) { return std::string(o.per_level.cache_aware ? "true" : "false"); },
     [](const FilterOptions& o) { return o.per_level.cache_aware; }, nullptr},
    {kCacheShareName, IdForm::kNamed, "<F>", OptionHost::kTableAware, "", kCacheAwareName,
     "the share describes the block cache the filters are sized for", false,
     [](std::string_view v, FilterOptions* o) {
       return ParseOptionalNumber<&PerLevelOptions::cache_share>(
           kCacheShareName, v, kShareUnset, absl::StrFormat("a share in [%g, 1]", kMinCacheShare),
           &CacheShareInRange, &CacheShareOutOfRange, o);
     },
     [](const FilterOptions& o) { return FormatOptional(o.per_level.cache_share, kShareUnset); },
     [](const FilterOptions& o) { return o.per_level.cache_share.has_value(); },
     &CacheShareOutOfRange},
    {kHitShareName, IdForm::kNamed, "<F>", OptionHost::kTableAware, "", kCacheAwareName,
     "the share describes the block cache the filters are sized for", false,
     [](std::string_view v, FilterOptions* o) {
       return ParseOptionalNumber<&PerLevelOptions::hit_share>(
           kHitShareName, v, kShareUnset, "a share in [0, 1]", &HitShareInRange,
           &HitShareOutOfRange, o);
     },
     [](const FilterOptions& o) { return FormatOptional(o.per_level.hit_share, kShareUnset); },
     [](const FilterOptions& o) { return o.per_level.hit_share.has_value(); }, &HitShareOutOfRange},
    {kRebuildName, IdForm::kNamed, "<MiB>", OptionHost::kTableAware, "", kOptimizeLevelsName,
     "the rewrites bring tables to the per-level plan", false,
     [](std::string_view v, FilterOptions* o) {
       return ParseOptionalNumber<&PerLevelOptions::rebuild_mb_s>(
           kRebuildName, v, kRebuildUnset,
           absl::StrFormat("MiB a second in [0, %.0f]", kMaxRebuildMbPerSecond), &RebuildInRange,
           &RebuildOutOfRange, o);
     },
     [](const FilterOptions& o) { return FormatOptional(o.per_level.rebuild_mb_s, kRebuildUnset); },
     [](const FilterOptions& o) { return o.per_level.rebuild_mb_s.has_value(); },
     &RebuildOutOfRange},
};

}  // namespace

absl::StatusOr<double> ParseBitsPerKeyValue(std::string_view value) {
  absl::StatusOr<std::optional<double>> bits =
      ParseNumber("bits_per_key", value, "", "", &BitsInRange, &BitsOutOfRange);
  if (!bits.ok()) {
    // Not a number: the message says so without a range.
    if (!ParsePlainNumber(value).has_value()) {
      return BadOptionValue("bits_per_key", value, "is not a number");
    }
    return bits.status();
  }
  return **bits;
}

absl::StatusOr<EncodingId> ParseEncodingValue(std::string_view value) {
  std::optional<EncodingId> encoding = ParseEncodingName(value);
  if (!encoding.has_value()) {
    return BadOptionValue(kEncodingKey, value, "is unknown; expected " + EncodingNameList());
  }
  return *encoding;
}

absl::Span<const OptionField> OptionFields() { return kFields; }

const OptionField* FindOptionField(std::string_view name) {
  for (const OptionField& field : kFields) {
    if (field.name == name) return &field;
  }
  return nullptr;
}

std::string OptionFieldNameList() {
  std::string list;
  for (size_t i = 0; i < std::size(kFields); ++i) {
    const char* separator = i == 0 ? "" : i + 1 == std::size(kFields) ? " or " : ", ";
    absl::StrAppendFormat(&list, "%s%s", separator, kFields[i].name);
  }
  return list;
}

absl::Status CheckHostFree(const FilterOptions& options) {
  for (const OptionField& field : kFields) {
    if (field.host != OptionHost::kTableAware || !field.is_set(options)) continue;
    const std::string shown = field.id_form == IdForm::kFlag
                                  ? std::string(field.name)
                                  : absl::StrFormat("%s=%s", field.name, field.format(options));
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %s needs a host that tells the policy each table's level (RocksDB); this policy "
        "(and LevelDB's) is never told which table it builds for: drop %s%s%s",
        kBloomPolicyName, shown, field.name, field.host_hint.empty() ? "" : ", ",
        field.host_hint));
  }
  return absl::OkStatus();
}

std::string ExampleIdWith(const OptionField& field, const FilterOptions& options) {
  std::string chain;
  for (const OptionField* up = FindOptionField(field.needs); up != nullptr;
       up = FindOptionField(up->needs)) {
    chain = absl::StrFormat(":%s%s", up->name, chain);
  }
  const std::string self = field.id_form == IdForm::kNamed
                               ? absl::StrFormat("%s:%s", field.name, field.format(options))
                               : std::string(field.name);
  return absl::StrFormat("%s:10%s:%s", kBloomPolicyName, chain, self);
}

}  // namespace sstfilter
