#include "table/census/traffic_file.h"

#include <cmath>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace sstfilter {

namespace {

constexpr char kHeader[] = "sstfilter traffic 2";
constexpr char kVersion1Header[] = "sstfilter traffic 1";
constexpr char kHitShareKey[] = "hit_share";

bool ShareInRange(double share) { return share >= 0 && share <= 1; }

}  // namespace

std::string FormatTrafficFile(const TrafficSummary& summary) {
  std::string text = absl::StrCat(kHeader, "\n");
  if (summary.hit_share.has_value()) {
    absl::StrAppendFormat(&text, "%s %.6g\n", kHitShareKey, *summary.hit_share);
  }
  for (const auto& [number, share] : summary.tables) {
    absl::StrAppendFormat(&text, "%d %.6g\n", number, share);
  }
  return text;
}

absl::StatusOr<TrafficSummary> ParseTrafficFile(std::string_view text) {
  std::vector<absl::string_view> lines =
      absl::StrSplit(absl::string_view(text.data(), text.size()), '\n', absl::SkipEmpty());
  if (lines.empty() || (lines[0] != kHeader && lines[0] != kVersion1Header)) {
    return absl::InvalidArgumentError(absl::StrFormat("%s: the first line is not '%s' (or '%s')",
                                                      kTrafficFileName, kHeader, kVersion1Header));
  }
  const bool version1 = lines[0] == kVersion1Header;
  TrafficSummary summary;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::vector<absl::string_view> fields = absl::StrSplit(lines[i], ' ');
    double share = 0;
    const bool share_ok =
        fields.size() == 2 && absl::SimpleAtod(fields[1], &share) && ShareInRange(share);
    if (!version1 && i == 1 && fields[0] == kHitShareKey) {
      if (!share_ok) {
        return absl::InvalidArgumentError(
            absl::StrFormat("%s: line 2 is not '%s <share in [0, 1]>': '%s'", kTrafficFileName,
                            kHitShareKey, std::string(lines[i].substr(0, 80))));
      }
      summary.hit_share = share;
      continue;
    }
    uint64_t number = 0;
    if (!share_ok || !absl::SimpleAtoi(fields[0], &number)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: line %d is not '<file number> <share in [0, 1]>': '%s'", kTrafficFileName, i + 1,
          std::string(lines[i].substr(0, 80))));
    }
    summary.tables[number] = share;
  }
  return summary;
}

}  // namespace sstfilter
