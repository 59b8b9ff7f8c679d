// sstfilter_db_bench's --compare list (bench/db_bench/compare_list.h):
// commas outside braces split it, and "*" in a sstfilter.bloom id stands
// for each encoding of the list, in order, written as the policy writes its
// id back.
#include "bench/db_bench/compare_list.h"

#include <algorithm>
#include <string>
#include <vector>

#include "filter/encoding_id.h"
#include "filter/filter_options.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace sstfilter::db_bench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The ids "*" should give: each encoding of the list, at these options.
std::vector<std::string> EveryEncoding(double bits_per_key) {
  std::vector<std::string> ids;
  for (EncodingId encoding : AllEncodingIds()) {
    FilterOptions options;
    options.bits_per_key = bits_per_key;
    options.encoding = encoding;
    ids.push_back(FormatPolicyId(options));
  }
  return ids;
}

TEST(CompareListTest, SplitsOutsideBraces) {
  EXPECT_THAT(SplitTopLevel("{id=sstfilter.bloom;bits_per_key=10},none"),
              ElementsAre("{id=sstfilter.bloom;bits_per_key=10}", "none"));
  EXPECT_THAT(ExpandCompareList("bloomfilter:10,{id=a;b=1,c},none").value(),
              ElementsAre("bloomfilter:10", "{id=a;b=1,c}", "none"));
}

TEST(CompareListTest, StarIsEveryEncoding) {
  const std::vector<std::string> every = EveryEncoding(10);
  ASSERT_EQ(every.size(), AllEncodingIds().size());
  EXPECT_EQ(ExpandCompareList("sstfilter.bloom:10:*").value(), every);
  // In place, among the others, each id as the policy writes it.
  std::vector<std::string> want = {"bloomfilter:10"};
  for (const std::string& id : EveryEncoding(7.5)) want.push_back(id);
  want.push_back("none");
  EXPECT_EQ(ExpandCompareList("bloomfilter:10,sstfilter.bloom:7.50:*,none").value(), want);
  // Every encoding's name appears, each once.
  const std::vector<std::string> expanded = ExpandCompareList("sstfilter.bloom:10:*").value();
  for (EncodingId encoding : AllEncodingIds()) {
    if (encoding == kDefaultEncoding) continue;  // Written without its name.
    // Appended, not ":" + name: GCC 12 in C++20 mode warns (-Wrestrict) on
    // that operator+ inlined, a false positive that -Werror turns fatal.
    std::string suffix = ":";
    suffix += EncodingName(encoding);
    EXPECT_EQ(std::count_if(expanded.begin(), expanded.end(),
                            [&](const std::string& id) {
                              return id.size() > suffix.size() &&
                                     id.compare(id.size() - suffix.size(), suffix.size(),
                                                suffix) == 0;
                            }),
              1)
        << suffix;
  }
}

TEST(CompareListTest, StarElsewhereIsRefused) {
  for (const char* list : {"sstfilter.bloom:*", "bloomfilter:10:*", "sstfilter.bloom:10:*:*",
                           "sstfilter.bloom:10:cache*", "{id=sstfilter.bloom;format=*}"}) {
    const absl::StatusOr<std::vector<std::string>> filters = ExpandCompareList(list);
    ASSERT_FALSE(filters.ok()) << list;
    EXPECT_THAT(std::string(filters.status().message()),
                HasSubstr(std::string("--compare: '") + list + "'"));
    EXPECT_THAT(std::string(filters.status().message()), HasSubstr("sstfilter.bloom:10:*"));
  }
}

}  // namespace
}  // namespace sstfilter::db_bench
