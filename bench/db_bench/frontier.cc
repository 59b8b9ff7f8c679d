#include "bench/db_bench/frontier.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "bench/db_bench/compare_list.h"

namespace sstfilter::db_bench {

namespace {

constexpr char kSettingField[] = "N";

std::string SettingText(double setting) { return absl::StrFormat("%g", setting); }

// `fields` with each field equal to `from` replaced by `to`; how many were.
size_t ReplaceFields(std::vector<std::string>& fields, std::string_view from,
                     const std::string& to) {
  size_t replaced = 0;
  for (std::string& field : fields) {
    if (field == from) field = to, ++replaced;
  }
  return replaced;
}

// The family's filters at one setting, "*" expanded.
absl::StatusOr<std::vector<std::string>> FiltersAt(const std::string& pattern, double setting) {
  std::vector<std::string> fields = absl::StrSplit(pattern, ':');
  if (ReplaceFields(fields, kSettingField, SettingText(setting)) != 1) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--frontier_families: '%s': expected one field '%s' for the setting, as in "
        "bloomfilter:%s",
        pattern, kSettingField, kSettingField));
  }
  return ExpandCompareList(absl::StrJoin(fields, ":"));
}

// The id written back at one setting, with that setting's field as N again.
std::string LabelOf(const std::string& filter, double setting) {
  std::vector<std::string> fields = absl::StrSplit(filter, ':');
  for (std::string& field : fields) {
    if (field == SettingText(setting)) {
      // A std::string, not the char array: GCC 12 at -O3 -std=c++20 warns
      // (-Wrestrict, falsely) inside basic_string::assign(const char*).
      field = std::string(kSettingField);
      break;
    }
  }
  return absl::StrJoin(fields, ":");
}

// x at y = target on the segment of consecutive points (by bytes) whose y
// bracket it, linear in both (callers pass log(reads) for reads: a Bloom
// filter's FP falls exponentially in its bits).
template <typename XOf, typename YOf>
std::optional<double> Interpolate(std::vector<FrontierPoint> points, double target, XOf x_of,
                                  YOf y_of) {
  std::sort(points.begin(), points.end(), [](const FrontierPoint& a, const FrontierPoint& b) {
    return a.bytes_per_key < b.bytes_per_key;
  });
  for (size_t i = 1; i < points.size(); ++i) {
    const double y0 = y_of(points[i - 1]), y1 = y_of(points[i]);
    if (std::min(y0, y1) <= target && target <= std::max(y0, y1)) {
      const double t = y0 == y1 ? 0 : (target - y0) / (y1 - y0);
      return x_of(points[i - 1]) + t * (x_of(points[i]) - x_of(points[i - 1]));
    }
  }
  return std::nullopt;
}

double Bytes(const FrontierPoint& p) { return p.bytes_per_key; }
double LogReads(const FrontierPoint& p) { return std::log(p.reads_per_op); }

// log(reads) needs every point's reads > 0.
bool HasReads(const FrontierCurve& curve) {
  return std::all_of(curve.points.begin(), curve.points.end(),
                     [](const FrontierPoint& p) { return p.reads_per_op > 0; });
}

std::string Ratio(std::optional<double> value, double reference) {
  return value.has_value() && reference > 0 ? absl::StrFormat("%.3fx", *value / reference)
                                            : "outside its range";
}

}  // namespace

absl::StatusOr<std::vector<double>> ParseFrontierSettings(const std::string& list) {
  std::vector<double> settings;
  absl::flat_hash_set<std::string> seen;
  for (const std::string& field : std::vector<std::string>(absl::StrSplit(list, ','))) {
    double setting = 0;
    if (!absl::SimpleAtod(field, &setting) || !(setting >= 1 && setting <= 100)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--frontier: '%s' is not a setting in [1, 100] bits per key", field));
    }
    if (!seen.insert(SettingText(setting)).second) {
      return absl::InvalidArgumentError(
          absl::StrFormat("--frontier: setting %g is given twice", setting));
    }
    settings.push_back(setting);
  }
  if (settings.size() < 2) {
    return absl::InvalidArgumentError(
        absl::StrFormat("--frontier=%s: expected at least two settings, as in 6,8,10,12", list));
  }
  return settings;
}

absl::StatusOr<std::vector<FrontierFamily>> ExpandFrontierFamilies(
    std::string_view list, const std::vector<double>& settings) {
  std::vector<FrontierFamily> families;
  for (const std::string& pattern : SplitTopLevel(list)) {
    const size_t first = families.size();
    for (double setting : settings) {
      absl::StatusOr<std::vector<std::string>> filters = FiltersAt(pattern, setting);
      if (!filters.ok()) return filters.status();
      if (families.size() == first) {
        for (const std::string& filter : *filters) {
          families.push_back({LabelOf(filter, setting), {}});
        }
      }
      for (size_t i = 0; i < filters->size(); ++i) {
        families[first + i].filters.push_back((*filters)[i]);
      }
    }
  }
  if (families.empty()) return absl::InvalidArgumentError("--frontier_families is empty");
  return families;
}

std::optional<double> BytesAtReads(const FrontierCurve& curve, double reads_per_op) {
  if (!HasReads(curve) || reads_per_op <= 0) return std::nullopt;
  return Interpolate(curve.points, std::log(reads_per_op), Bytes, LogReads);
}

std::optional<double> ReadsAtBytes(const FrontierCurve& curve, double bytes_per_key) {
  if (!HasReads(curve)) return std::nullopt;
  const std::optional<double> log_reads = Interpolate(curve.points, bytes_per_key, LogReads, Bytes);
  if (!log_reads.has_value()) return std::nullopt;
  return std::exp(*log_reads);
}

std::string FrontierTable(const std::vector<FrontierCurve>& curves, double reference_setting) {
  std::string s = absl::StrFormat("%-66s %7s %10s %10s %9s\n", "frontier: family", "setting",
                                  "bytes/key", "reads/op", "us/op");
  for (const FrontierCurve& curve : curves) {
    for (const FrontierPoint& p : curve.points) {
      absl::StrAppendFormat(&s, "%-66s %7g %10.3f %10.4f %9.3f\n", curve.label, p.setting,
                            p.bytes_per_key, p.reads_per_op, p.micros_per_op);
    }
  }
  if (curves.empty()) return s;
  const FrontierCurve& reference = curves.front();
  const auto at = std::find_if(reference.points.begin(), reference.points.end(),
                               [&](const FrontierPoint& p) { return p.setting == reference_setting; });
  if (at == reference.points.end()) return s;
  absl::StrAppendFormat(&s,
                        "\nagainst %s at %g (%.3f filter bytes/key, %.4f data-block reads per "
                        "absent Get):\n%-66s %18s %18s\n",
                        reference.label, at->setting, at->bytes_per_key, at->reads_per_op,
                        "family", "bytes, same reads", "reads, same bytes");
  for (const FrontierCurve& curve : curves) {
    absl::StrAppendFormat(&s, "%-66s %18s %18s\n", curve.label,
                          Ratio(BytesAtReads(curve, at->reads_per_op), at->bytes_per_key),
                          Ratio(ReadsAtBytes(curve, at->bytes_per_key), at->reads_per_op));
  }
  return s;
}

std::string FrontierCsv(const std::vector<FrontierCurve>& curves) {
  std::string s =
      "family,setting,filter_bytes_per_key,data_block_reads_per_absent_get,micros_per_absent_get\n";
  for (const FrontierCurve& curve : curves) {
    for (const FrontierPoint& p : curve.points) {
      absl::StrAppendFormat(&s, "\"%s\",%g,%.6f,%.6f,%.4f\n", curve.label, p.setting,
                            p.bytes_per_key, p.reads_per_op, p.micros_per_op);
    }
  }
  return s;
}

}  // namespace sstfilter::db_bench
