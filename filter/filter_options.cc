#include "filter/filter_options.h"

#include <cmath>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "filter/bloom_math.h"
#include "filter/encodings.h"
#include "filter/option_fields.h"

namespace sstfilter {

namespace {

// Debian's Abseil is built with its own string_view type.
absl::string_view AbslView(std::string_view s) { return {s.data(), s.size()}; }
std::string_view StdView(absl::string_view s) { return {s.data(), s.size()}; }

// ---- Combinations: what the table cannot say ----

// compact_from_level chooses compact below a fast encoding.
absl::Status CheckCompactFromLevel(const FilterOptions& options) {
  if (!options.per_level.compact_from_level.has_value() ||
      options.encoding != EncodingId::kCompact) {
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrFormat("%s: %s=%d with %s=compact: every table is compact already; %s chooses "
                      "compact below a fast encoding (leveldb or cache_local)",
                      kBloomPolicyName, kCompactFromLevelName,
                      *options.per_level.compact_from_level, kEncodingKey, kCompactFromLevelName));
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
  return BadOptionValue(kFpRateName, FormatBitsPerKey(fp_rate),
                        absl::StrFormat("is below what %s=%s reaches at %g bits/key (%g)",
                                        kEncodingKey, EncodingName(encoding), kMaxBitsPerKey,
                                        least));
}

// fp_rate, when it replaces bits_per_key, reachable by every encoding the
// options write, and not with optimize_levels.
absl::Status CheckAccuracy(const FilterOptions& options) {
  if (!options.fp_rate.has_value()) return absl::OkStatus();
  if (options.per_level.optimize_levels) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %s with %s=%s: optimize_levels spends bits_per_key on average over the tree "
        "and sets each table's FP itself; give bits_per_key instead",
        kBloomPolicyName, kOptimizeLevelsName, kFpRateName, FormatBitsPerKey(*options.fp_rate)));
  }
  if (absl::Status s = CheckFpReachable(*options.fp_rate, options.encoding); !s.ok()) return s;
  if (!options.per_level.compact_from_level.has_value()) return absl::OkStatus();
  return CheckFpReachable(*options.fp_rate, EncodingId::kCompact);
}

// Each value the options give in its range (set in C++, a value never went
// through a parser): the field's parser reads back what it writes.
absl::Status CheckRanges(const FilterOptions& options) {
  for (const OptionField& field : OptionFields()) {
    if (field.id_form == IdForm::kEncoding || !field.is_set(options)) continue;
    FilterOptions read_back;
    if (absl::Status s = field.parse(field.format(options), &read_back); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// Each field given with the field it refines.
absl::Status CheckNeeds(const FilterOptions& options) {
  for (const OptionField& field : OptionFields()) {
    if (field.needs.empty() || !field.is_set(options)) continue;
    if (FindOptionField(field.needs)->is_set(options)) continue;
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: %s without %s: %s; add %s (%s)", kBloomPolicyName, field.name,
                        field.needs, field.needs_why, field.needs,
                        ExampleIdWith(field, options)));
  }
  return absl::OkStatus();
}

absl::Status CheckOptions(const FilterOptions& options) {
  if (!IsKnownEncoding(options.encoding)) {
    return BadOptionValue(kEncodingKey, std::to_string(static_cast<int>(options.encoding)),
                          "is not an EncodingId; expected " + EncodingNameList());
  }
  absl::Status s = CheckRanges(options);
  if (s.ok()) s = CheckCompactFromLevel(options);
  if (s.ok()) s = CheckAccuracy(options);
  if (s.ok()) s = CheckNeeds(options);
  return s;
}

// ---- Ids ----

// The id's grammar, for messages: from the table.
std::string IdGrammar() {
  std::string fields;
  for (const OptionField& field : OptionFields()) {
    if (field.id_form == IdForm::kAccuracy) continue;
    absl::StrAppendFormat(&fields, "[:%s%s%s]",
                          field.id_form == IdForm::kEncoding ? field.placeholder : field.name,
                          field.id_form == IdForm::kNamed ? ":" : "",
                          field.id_form == IdForm::kNamed ? field.placeholder : "");
  }
  return absl::StrFormat("%s[:<bits_per_key>|:%s:<p>], then in any order %s", kBloomPolicyName,
                         kFpRateName, fields);
}

absl::Status BadId(std::string_view id, std::string_view problem) {
  return absl::InvalidArgumentError(absl::StrFormat("'%s' is not a %s id%s; expected %s", id,
                                                    kBloomPolicyName, problem, IdGrammar()));
}

using IdParts = std::vector<absl::string_view>;

// Reads an id's parts into options, field by field, recording what it
// states (by the fields' names).
class IdReader {
 public:
  IdReader(std::string_view id, FilterOptions* options) : id_(id), options_(options) {
    parts_ = absl::StrSplit(AbslView(id), ':');
  }

  absl::Status Read() {
    if (parts_[0] != kBloomPolicyName) return BadId(id_, "");
    for (absl::string_view part : parts_) {
      if (absl::StrContains(part, '=')) {
        return BadId(id_, absl::StrFormat(
                              ": '%s' has an '=' (fields are separated by ':', as in "
                              "%s:2; RocksDB reads '=' in filter_policy as an option map)",
                              StdView(part), kCompactFromLevelName));
      }
    }
    size_t i = 1;
    if (absl::Status s = ReadAccuracy(&i); !s.ok()) return s;
    const size_t after_accuracy = i;
    while (i < parts_.size()) {
      if (absl::Status s = ReadField(&i, i == after_accuracy); !s.ok()) return s;
    }
    return absl::OkStatus();
  }

  const std::vector<std::string>& stated() const { return stated_; }

 private:
  std::string_view Part(size_t i) const { return StdView(parts_[i]); }

  // The value after the field at parts_[i], or an error naming the field.
  absl::StatusOr<std::string_view> ValueOf(size_t i, const OptionField& field) const {
    if (i + 1 < parts_.size()) return Part(i + 1);
    return BadId(id_, absl::StrFormat(": %s needs a value (%s:%s)", field.name, field.name,
                                      field.placeholder));
  }

  // Parses `value` into the field, as an id may spell it.
  absl::Status Take(const OptionField& field, std::string_view value) {
    if (absl::Status s = field.parse(value, options_); !s.ok()) return s;
    if (field.unset_in_id != nullptr && !field.is_set(*options_)) return field.unset_in_id(value);
    stated_.emplace_back(field.name);
    return absl::OkStatus();
  }

  // [<bits_per_key> | fp_rate:<p>] at parts_[*i].
  absl::Status ReadAccuracy(size_t* i) {
    if (*i == parts_.size()) return absl::OkStatus();
    const OptionField& fp = *FindOptionField(kFpRateName);
    if (Part(*i) != fp.name) {
      if (absl::Status s = Take(*FindOptionField("bits_per_key"), Part(*i)); !s.ok()) return s;
      ++*i;
      return absl::OkStatus();
    }
    absl::StatusOr<std::string_view> value = ValueOf(*i, fp);
    if (!value.ok()) return value.status();
    if (absl::Status s = Take(fp, *value); !s.ok()) return s;
    *i += 2;
    return absl::OkStatus();
  }

  // The field at parts_[*i]; `first`: the first after the accuracy.
  absl::Status ReadField(size_t* i, bool first) {
    const std::string_view part = Part(*i);
    const OptionField* field = IdWord(part);
    if (field == nullptr) return UnknownWord(*i, first);
    if (field->id_form == IdForm::kAccuracy) {
      return BadId(id_, absl::StrFormat(": %s takes the place of <bits_per_key>, first after "
                                        "the name (%s:%s:0.01)",
                                        part, kBloomPolicyName, part));
    }
    std::string_view value = field->id_form == IdForm::kFlag ? "true" : part;
    if (field->id_form == IdForm::kNamed) {
      absl::StatusOr<std::string_view> named = ValueOf(*i, *field);
      if (!named.ok()) return named.status();
      value = *named;
      ++*i;
    }
    ++*i;
    if (absl::Status s = Twice(*field, value); !s.ok()) return s;
    return Take(*field, value);
  }

  // Why the word at parts_[i], which names no field, is there: right after
  // the accuracy it is taken for an encoding's name; after a flag, for the
  // flag's value.
  absl::Status UnknownWord(size_t i, bool first) const {
    if (first) return ParseEncodingValue(Part(i)).status();
    const OptionField* before = FindOptionField(Part(i - 1));
    if (before != nullptr && before->id_form == IdForm::kFlag) {
      return BadId(id_, absl::StrFormat(": %s takes no value (unexpected '%s')", before->name,
                                        Part(i)));
    }
    return BadId(id_, absl::StrFormat(": unexpected '%s'", Part(i)));
  }

  // The field an id's word names: a flag or named field by its name (the
  // accuracy's and the encoding's names are not id words), an encoding by
  // its; null if none.
  static const OptionField* IdWord(std::string_view word) {
    const OptionField* field = FindOptionField(word);
    if (field != nullptr && field->id_form != IdForm::kEncoding && field->name != "bits_per_key") {
      return field;
    }
    return ParseEncodingName(word).has_value() ? FindOptionField(kEncodingKey) : nullptr;
  }

  // An error if the id states `field` already; `value`: what it gives now.
  absl::Status Twice(const OptionField& field, std::string_view value) const {
    for (const std::string& name : stated_) {
      if (name != field.name) continue;
      const std::string both =
          field.id_form == IdForm::kFlag
              ? ""
              : absl::StrFormat(" (%s, then %s)", field.format(*options_), ShownValue(value));
      return absl::InvalidArgumentError(absl::StrFormat("%s: %s is given twice in '%s'%s",
                                                        kBloomPolicyName, field.name, id_, both));
    }
    return absl::OkStatus();
  }

  std::string_view id_;
  FilterOptions* options_;
  IdParts parts_;
  std::vector<std::string> stated_;
};

}  // namespace

absl::StatusOr<FilterOptions> ResolveFilterOptions(const FilterOptions& options) {
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;
  return options;
}

absl::StatusOr<FilterOptions> ParsePolicyId(std::string_view id) {
  FilterOptions options;
  IdReader reader(id, &options);
  absl::Status s = reader.Read();
  if (s.ok()) s = CheckOptions(options);
  if (!s.ok()) return s;
  return options;
}

std::vector<std::string> StatedOptions(std::string_view id) {
  FilterOptions options;
  IdReader reader(id, &options);
  reader.Read().IgnoreError();  // REQUIRES: the id parses.
  return reader.stated();
}

std::string FormatPolicyId(const FilterOptions& options) {
  std::string id(kBloomPolicyName);
  for (const OptionField& field : OptionFields()) {
    if (!field.is_set(options)) continue;
    const std::string value = field.format(options);
    switch (field.id_form) {
      case IdForm::kAccuracy:
        if (field.name == kFpRateName) absl::StrAppendFormat(&id, ":%s", field.name);
        absl::StrAppendFormat(&id, ":%s", value);
        break;
      case IdForm::kEncoding:
        absl::StrAppendFormat(&id, ":%s", value);
        break;
      case IdForm::kFlag:
        absl::StrAppendFormat(&id, ":%s", field.name);
        break;
      case IdForm::kNamed:
        absl::StrAppendFormat(&id, ":%s:%s", field.name, value);
        break;
    }
  }
  return id;
}

}  // namespace sstfilter
