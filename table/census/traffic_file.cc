#include "table/census/traffic_file.h"

#include <cmath>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace sstfilter {

namespace {

constexpr char kHeader[] = "sstfilter traffic 3";
// The versions read, by header: each later one only adds lines or fields.
constexpr const char* kHeaders[] = {"sstfilter traffic 1", "sstfilter traffic 2", kHeader};
constexpr char kDbKey[] = "db";
constexpr char kHitShareKey[] = "hit_share";

bool ShareInRange(double share) { return share >= 0 && share <= 1; }

absl::string_view FirstWord(absl::string_view line) { return line.substr(0, line.find(' ')); }

// The version `line` is the header of; 0 if none.
int VersionOf(absl::string_view line) {
  for (int v = 1; v <= 3; ++v) {
    if (line == kHeaders[v - 1]) return v;
  }
  return 0;
}

absl::Status NotA(size_t line_index, absl::string_view expected, absl::string_view line) {
  return absl::InvalidArgumentError(absl::StrFormat("%s: line %d is not '%s': '%s'",
                                                    kTrafficFileName, line_index + 1, expected,
                                                    std::string(line.substr(0, 80))));
}

// A table's line, into `summary`: "<number> <share>", and from version 3
// on " <exposure>".
absl::Status ParseTableLine(int version, size_t i, absl::string_view line,
                            TrafficSummary* summary) {
  const std::vector<absl::string_view> fields = absl::StrSplit(line, ' ');
  const size_t expected_fields = version >= 3 ? 3 : 2;
  uint64_t number = 0;
  double share = 0, exposure = 0;
  const bool ok = fields.size() == expected_fields && absl::SimpleAtoi(fields[0], &number) &&
                  absl::SimpleAtod(fields[1], &share) && ShareInRange(share) &&
                  (version < 3 || (absl::SimpleAtod(fields[2], &exposure) &&
                                   std::isfinite(exposure) && exposure >= 0));
  if (!ok) {
    return NotA(i, version >= 3 ? "<file number> <share in [0, 1]> <exposure, 0 or more>"
                                : "<file number> <share in [0, 1]>",
                line);
  }
  summary->tables[number] = share;
  if (version >= 3) summary->exposures[number] = exposure;
  return absl::OkStatus();
}

}  // namespace

std::string FormatTrafficFile(const TrafficSummary& summary) {
  std::string text = absl::StrCat(kHeader, "\n");
  if (!summary.db_identity.empty()) absl::StrAppend(&text, kDbKey, " ", summary.db_identity, "\n");
  if (summary.hit_share.has_value()) {
    absl::StrAppendFormat(&text, "%s %.6g\n", kHitShareKey, *summary.hit_share);
  }
  for (const auto& [number, share] : summary.tables) {
    const auto exposure = summary.exposures.find(number);
    absl::StrAppendFormat(&text, "%d %.6g %.6g\n", number, share,
                          exposure == summary.exposures.end() ? 0.0 : exposure->second);
  }
  return text;
}

absl::StatusOr<TrafficSummary> ParseTrafficFile(std::string_view text) {
  std::vector<absl::string_view> lines =
      absl::StrSplit(absl::string_view(text.data(), text.size()), '\n', absl::SkipEmpty());
  const int version = lines.empty() ? 0 : VersionOf(lines[0]);
  if (version == 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: the first line is not '%s' (or an earlier version's)",
                        kTrafficFileName, kHeader));
  }
  TrafficSummary summary;
  size_t i = 1;
  // Version 3's db line, then version 2's hit_share line, each optional.
  if (version >= 3 && i < lines.size() && FirstWord(lines[i]) == kDbKey) {
    const std::vector<absl::string_view> fields = absl::StrSplit(lines[i], ' ');
    if (fields.size() != 2 || fields[1].empty()) return NotA(i, "db <identity>", lines[i]);
    summary.db_identity = std::string(fields[1]);
    ++i;
  }
  if (version >= 2 && i < lines.size() && FirstWord(lines[i]) == kHitShareKey) {
    const std::vector<absl::string_view> fields = absl::StrSplit(lines[i], ' ');
    double share = 0;
    if (fields.size() != 2 || !absl::SimpleAtod(fields[1], &share) || !ShareInRange(share)) {
      return NotA(i, "hit_share <share in [0, 1]>", lines[i]);
    }
    summary.hit_share = share;
    ++i;
  }
  for (; i < lines.size(); ++i) {
    if (absl::Status s = ParseTableLine(version, i, lines[i], &summary); !s.ok()) return s;
  }
  return summary;
}

}  // namespace sstfilter
