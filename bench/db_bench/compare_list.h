// sstfilter_db_bench's --compare list: filter strings separated by commas
// outside braces, where a sstfilter.bloom id with "*" for its encoding
// ("sstfilter.bloom:10:*") stands for one id per encoding of the list
// (filter/encodings.h), so a new encoding is compared without edits.
#ifndef SSTFILTER_BENCH_DB_BENCH_COMPARE_LIST_H_
#define SSTFILTER_BENCH_DB_BENCH_COMPARE_LIST_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace sstfilter::db_bench {

// The token that stands for every encoding.
inline constexpr char kEveryEncoding[] = "*";

// Splits on commas outside braces ("{id=a;b=1},none" is two filters).
std::vector<std::string> SplitTopLevel(std::string_view list);

// The filters of a --compare list, in order, each "*" expanded: a field "*"
// of a sstfilter.bloom id becomes each encoding's name, in EncodingId
// order, and each id is written as the policy writes it back
// ("sstfilter.bloom:10:*" -> "sstfilter.bloom:10",
// "sstfilter.bloom:10:cache_local", ...). InvalidArgument for a "*" anywhere
// else, or an id that does not parse once expanded.
absl::StatusOr<std::vector<std::string>> ExpandCompareList(std::string_view list);

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_COMPARE_LIST_H_
