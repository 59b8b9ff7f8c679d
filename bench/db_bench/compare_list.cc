#include "bench/db_bench/compare_list.h"

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "filter/encoding_id.h"
#include "filter/filter_options.h"

namespace sstfilter::db_bench {

std::vector<std::string> SplitTopLevel(std::string_view list) {
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  for (char ch : list) {
    if (ch == '{') ++depth;
    if (ch == '}') --depth;
    if (ch == ',' && depth == 0) {
      parts.push_back(current);
      current.clear();
    } else {
      current += ch;
    }
  }
  if (!current.empty()) parts.push_back(current);
  return parts;
}

absl::StatusOr<std::vector<std::string>> ExpandCompareList(std::string_view list) {
  std::vector<std::string> filters;
  for (const std::string& filter : SplitTopLevel(list)) {
    if (!absl::StrContains(filter, kEveryEncoding)) {
      filters.push_back(filter);
      continue;
    }
    const auto bad = [&filter](std::string_view why) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--compare: '%s': %s ('%s' stands for each encoding in a sstfilter.bloom id, "
          "as in sstfilter.bloom:10:%s)",
          filter, why, kEveryEncoding, kEveryEncoding));
    };
    std::vector<std::string> fields = absl::StrSplit(filter, ':');
    size_t stars = 0, star = 0;
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i] == kEveryEncoding) ++stars, star = i;
    }
    if (stars != 1 || absl::StrContains(filter, '{')) {
      return bad(absl::StrFormat("'%s' must be one whole field", kEveryEncoding));
    }
    for (EncodingId encoding : AllEncodingIds()) {
      fields[star] = std::string(EncodingName(encoding));
      const std::string id = absl::StrJoin(fields, ":");
      const absl::StatusOr<FilterOptions> options = ParsePolicyId(id);
      if (!options.ok()) return bad(std::string(options.status().message()));
      filters.push_back(FormatPolicyId(*options));
    }
  }
  return filters;
}

}  // namespace sstfilter::db_bench
