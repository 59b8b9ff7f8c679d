#include "table/census/traffic_file.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "table/census/dir_file.h"

namespace sstfilter {

namespace {

constexpr char kHeader[] = "sstfilter traffic 4";
// The versions read, by header: each later one only adds lines or fields.
constexpr const char* kHeaders[] = {"sstfilter traffic 1", "sstfilter traffic 2",
                                    "sstfilter traffic 3", kHeader};
constexpr int kVersions = static_cast<int>(std::size(kHeaders));
constexpr char kDbKey[] = "db";
constexpr char kHitShareKey[] = "hit_share";
constexpr char kMoveKey[] = "move";
// RocksDB's levels are fewer (its num_levels is an int, 7 by default).
constexpr int kMaxLevel = 1000;

bool ShareInRange(double share) { return share >= 0 && share <= 1; }

absl::string_view FirstWord(absl::string_view line) { return line.substr(0, line.find(' ')); }

// The version `line` is the header of; 0 if none.
int VersionOf(absl::string_view line) {
  for (int v = 1; v <= kVersions; ++v) {
    if (line == kHeaders[v - 1]) return v;
  }
  return 0;
}

absl::Status NotA(size_t line_index, absl::string_view expected, absl::string_view line) {
  return absl::InvalidArgumentError(absl::StrFormat("%s: line %d is not '%s': '%s'",
                                                    kTrafficFileName, line_index + 1, expected,
                                                    PrintableExcerpt(line, 80)));
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
  summary->tables[number] = share + 0.0;  // -0 is 0.
  if (version >= 3) summary->exposures[number] = exposure + 0.0;
  return absl::OkStatus();
}

// A move line, into `summary`: "move <level> fewer|more <unix seconds>".
absl::Status ParseMoveLine(size_t i, absl::string_view line, TrafficSummary* summary) {
  const std::vector<absl::string_view> fields = absl::StrSplit(line, ' ');
  int level = -1;
  int64_t seconds = -1;
  const bool ok = fields.size() == 4 && absl::SimpleAtoi(fields[1], &level) && level >= 0 &&
                  level <= kMaxLevel && (fields[2] == "fewer" || fields[2] == "more") &&
                  absl::SimpleAtoi(fields[3], &seconds) && seconds >= 0 &&
                  summary->level_moves.count(level) == 0;
  if (!ok) return NotA(i, "move <level, once each> fewer|more <seconds since 1970>", line);
  summary->level_moves[level] = {fields[2] == "fewer", seconds};
  return absl::OkStatus();
}

// The file numbers of the kMaxTrafficTables tables with the largest
// exposures (all if there are no more).
std::vector<uint64_t> TablesWritten(const TrafficSummary& summary) {
  std::vector<uint64_t> numbers;
  for (const auto& entry : summary.tables) numbers.push_back(entry.first);
  if (numbers.size() <= kMaxTrafficTables) return numbers;
  const auto exposure = [&](uint64_t number) {
    const auto it = summary.exposures.find(number);
    return it == summary.exposures.end() ? 0.0 : it->second;
  };
  std::nth_element(numbers.begin(), numbers.begin() + kMaxTrafficTables, numbers.end(),
                   [&](uint64_t a, uint64_t b) { return exposure(a) > exposure(b); });
  numbers.resize(kMaxTrafficTables);
  std::sort(numbers.begin(), numbers.end());
  return numbers;
}

}  // namespace

std::string FormatTrafficFile(const TrafficSummary& summary) {
  std::string text = absl::StrCat(kHeader, "\n");
  if (!summary.db_identity.empty()) absl::StrAppend(&text, kDbKey, " ", summary.db_identity, "\n");
  // + 0.0: a share of -0 is written as 0.
  if (summary.hit_share.has_value()) {
    absl::StrAppendFormat(&text, "%s %.6g\n", kHitShareKey, *summary.hit_share + 0.0);
  }
  for (const auto& [level, move] : summary.level_moves) {
    absl::StrAppendFormat(&text, "%s %d %s %d\n", kMoveKey, level,
                          move.fewer_bits ? "fewer" : "more", move.unix_seconds);
  }
  for (const uint64_t number : TablesWritten(summary)) {
    const auto exposure = summary.exposures.find(number);
    absl::StrAppendFormat(&text, "%d %.6g %.6g\n", number, summary.tables.at(number) + 0.0,
                          exposure == summary.exposures.end() ? 0.0 : exposure->second + 0.0);
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
  // Every version ends each line with a newline: a file without one at its
  // end was cut short (a copy or a disk that failed mid-write).
  if (text.back() != '\n') {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: the last line is cut short (no newline at its end): '%s'",
                        kTrafficFileName, PrintableExcerpt(lines.back(), 80)));
  }
  TrafficSummary summary;
  summary.version = version;
  size_t i = 1;
  // Version 3's db line, then version 2's hit_share line, each optional, then
  // version 4's move lines.
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
    summary.hit_share = share + 0.0;  // -0 is 0.
    ++i;
  }
  for (; version >= 4 && i < lines.size() && FirstWord(lines[i]) == kMoveKey; ++i) {
    if (absl::Status s = ParseMoveLine(i, lines[i], &summary); !s.ok()) return s;
  }
  for (; i < lines.size(); ++i) {
    if (absl::Status s = ParseTableLine(version, i, lines[i], &summary); !s.ok()) return s;
  }
  return summary;
}

}  // namespace sstfilter
