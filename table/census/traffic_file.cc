#include "table/census/traffic_file.h"

#include <cmath>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace sstfilter {

namespace {

constexpr char kHeader[] = "sstfilter traffic 1";

}  // namespace

std::string FormatTrafficFile(const TableShares& shares) {
  std::string text = absl::StrCat(kHeader, "\n");
  for (const auto& [number, share] : shares) absl::StrAppendFormat(&text, "%d %.6g\n", number, share);
  return text;
}

absl::StatusOr<TableShares> ParseTrafficFile(std::string_view text) {
  std::vector<absl::string_view> lines =
      absl::StrSplit(absl::string_view(text.data(), text.size()), '\n', absl::SkipEmpty());
  if (lines.empty() || lines[0] != kHeader) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: the first line is not '%s'", kTrafficFileName, kHeader));
  }
  TableShares shares;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::vector<absl::string_view> fields = absl::StrSplit(lines[i], ' ');
    uint64_t number = 0;
    double share = 0;
    if (fields.size() != 2 || !absl::SimpleAtoi(fields[0], &number) ||
        !absl::SimpleAtod(fields[1], &share) || !(share >= 0 && share <= 1)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: line %d is not '<file number> <share in [0, 1]>': '%s'", kTrafficFileName, i + 1,
          std::string(lines[i].substr(0, 80))));
    }
    shares[number] = share;
  }
  return shares;
}

}  // namespace sstfilter
