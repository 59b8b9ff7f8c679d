// compact_from_level (RocksDB only: compact filters from a level down):
// its ids, its value text, its range and combination rules, and the
// LevelDB-shaped policy's refusal of it.
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "filter/filter_options.h"
#include "filter/filter_policy.h"
#include "filter/option_fields.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/option_field_parse.h"

namespace sstfilter {
namespace {

using ::testing::HasSubstr;
using testing::ParseField;

FilterOptions WithLevel(EncodingId format, std::optional<int> level) {
  FilterOptions options;
  options.encoding = format;
  options.per_level.compact_from_level = level;
  return options;
}

TEST(CompactFromLevelTest, IdsParseAndRoundTrip) {
  const std::pair<const char*, FilterOptions> kIds[] = {
      {"sstfilter.bloom:10:cache_local:compact_from_level:2",
       WithLevel(EncodingId::kCacheLocal, 2)},
      {"sstfilter.bloom:10:compact_from_level:0", WithLevel(EncodingId::kLevelDb, 0)},
      {"sstfilter.bloom:10:leveldb:compact_from_level:100",
       WithLevel(EncodingId::kLevelDb, 100)},
      {"sstfilter.bloom:10:cache_local:compact_from_level:007",
       WithLevel(EncodingId::kCacheLocal, 7)},
      // "none" is the option map's spelling of "not set"; an id accepts it too.
      {"sstfilter.bloom:10:cache_local:compact_from_level:none",
       WithLevel(EncodingId::kCacheLocal, std::nullopt)},
  };
  for (const auto& [id, want] : kIds) {
    absl::StatusOr<FilterOptions> parsed = ParsePolicyId(id);
    ASSERT_TRUE(parsed.ok()) << id << ": " << parsed.status();
    EXPECT_EQ(*parsed, want) << id;
    absl::StatusOr<FilterOptions> back = ParsePolicyId(FormatPolicyId(*parsed));
    ASSERT_TRUE(back.ok()) << FormatPolicyId(*parsed) << ": " << back.status();
    EXPECT_EQ(*back, *parsed) << id;
  }
  // The id written back: the format only when not the default, the level last.
  EXPECT_EQ(FormatPolicyId(WithLevel(EncodingId::kCacheLocal, 2)),
            "sstfilter.bloom:10:cache_local:compact_from_level:2");
  EXPECT_EQ(FormatPolicyId(WithLevel(EncodingId::kLevelDb, 0)),
            "sstfilter.bloom:10:compact_from_level:0");
  EXPECT_EQ(FormatPolicyId(WithLevel(EncodingId::kLevelDb, std::nullopt)), "sstfilter.bloom:10");
  // Every level and fast encoding (every encoding of the list but compact,
  // refused with the option) round-trips.
  for (int level = 0; level <= kMaxCompactFromLevel; ++level) {
    for (EncodingId format : AllEncodingIds()) {
      if (format == EncodingId::kCompact) continue;
      const FilterOptions options = WithLevel(format, level);
      absl::StatusOr<FilterOptions> back = ParsePolicyId(FormatPolicyId(options));
      ASSERT_TRUE(back.ok()) << FormatPolicyId(options);
      EXPECT_EQ(*back, options);
    }
  }
}

TEST(CompactFromLevelTest, ValueTextAndItsFormatting) {
  const OptionField& field = *FindOptionField("compact_from_level");
  for (int level : {0, 1, 2, 6, 99, 100}) {
    absl::StatusOr<FilterOptions> parsed =
        ParseField(field.name, field.format(WithLevel(EncodingId::kLevelDb, level)));
    ASSERT_TRUE(parsed.ok()) << level << ": " << parsed.status();
    EXPECT_EQ(parsed->per_level.compact_from_level, level);
  }
  EXPECT_EQ(field.format(FilterOptions()), "none");
  absl::StatusOr<FilterOptions> unset = ParseField(field.name, "none");
  ASSERT_TRUE(unset.ok());
  EXPECT_EQ(unset->per_level.compact_from_level, std::nullopt);
}

struct BadLevelText {
  std::string text;
  std::string message;  // The whole message.
};

class BadCompactFromLevelTest : public ::testing::TestWithParam<BadLevelText> {};

// The same message as a value (the option map) and inside an id.
TEST_P(BadCompactFromLevelTest, IsRejectedNamingTheValue) {
  EXPECT_EQ(ParseField("compact_from_level", GetParam().text).status().message(),
            GetParam().message);
  const std::string id = "sstfilter.bloom:10:cache_local:compact_from_level:" + GetParam().text;
  EXPECT_EQ(ParsePolicyId(id).status().message(), GetParam().message) << id;
}

const char kNotALevel[] = " is not a level; expected an integer in [0, 100] or none";
const char kOutOfRange[] = " is out of range; expected a level in [0, 100] or none";

INSTANTIATE_TEST_SUITE_P(
    All, BadCompactFromLevelTest,
    ::testing::Values(
        BadLevelText{"-1", std::string("sstfilter.bloom: compact_from_level=-1") + kOutOfRange +
                               " (flushes always get the fast encoding)"},
        BadLevelText{"-0", std::string("sstfilter.bloom: compact_from_level=-0") + kOutOfRange +
                               " (flushes always get the fast encoding)"},
        BadLevelText{"101", std::string("sstfilter.bloom: compact_from_level=101") + kOutOfRange},
        BadLevelText{"99999999999999999999",
                     std::string("sstfilter.bloom: compact_from_level=99999999999999999999") +
                         kOutOfRange},
        BadLevelText{"", std::string("sstfilter.bloom: compact_from_level=''") + kNotALevel},
        BadLevelText{"2.5", std::string("sstfilter.bloom: compact_from_level=2.5") + kNotALevel},
        BadLevelText{"+2", std::string("sstfilter.bloom: compact_from_level=+2") + kNotALevel},
        BadLevelText{" 2", std::string("sstfilter.bloom: compact_from_level= 2") + kNotALevel},
        BadLevelText{"L2", std::string("sstfilter.bloom: compact_from_level=L2") + kNotALevel},
        BadLevelText{"-", std::string("sstfilter.bloom: compact_from_level=-") + kNotALevel},
        BadLevelText{"1e1", std::string("sstfilter.bloom: compact_from_level=1e1") + kNotALevel},
        BadLevelText{"0x2", std::string("sstfilter.bloom: compact_from_level=0x2") + kNotALevel}),
    [](const ::testing::TestParamInfo<BadLevelText>& info) {
      return "case_" + std::to_string(info.index);
    });

// What a message about a malformed id says an id is.
constexpr char kGrammar[] =
    "sstfilter.bloom[:<bits_per_key>|:fp_rate:<p>], then in any order [:<encoding>]"
    "[:compact_from_level:<level>][:optimize_levels][:access_aware][:budget_mb:<MiB>]"
    "[:cache_aware][:cache_share:<F>][:hit_share:<F>][:rebuild_mb_s:<MiB>]";

TEST(CompactFromLevelTest, BadIdsNameTheProblem) {
  const std::pair<std::string, std::string> kBad[] = {
      {"sstfilter.bloom:10:cache_local:compact_from_level:2:compact_from_level:3",
       "sstfilter.bloom: compact_from_level is given twice in "
       "'sstfilter.bloom:10:cache_local:compact_from_level:2:compact_from_level:3' (2, then 3)"},
      {"sstfilter.bloom:10:compact:compact_from_level:2",
       "sstfilter.bloom: compact_from_level=2 with format=compact: every table is compact "
       "already; compact_from_level chooses compact below a fast encoding (leveldb or "
       "cache_local)"},
      {"sstfilter.bloom:10:cache_local:compact_from_level",
       std::string("'sstfilter.bloom:10:cache_local:compact_from_level' is not a sstfilter.bloom "
                   "id: compact_from_level needs a value (compact_from_level:<level>); "
                   "expected ") +
           kGrammar},
      {"sstfilter.bloom:10:cache_local:compact_from_level=2",
       std::string("'sstfilter.bloom:10:cache_local:compact_from_level=2' is not a "
                   "sstfilter.bloom id: 'compact_from_level=2' has an '=' (fields are separated "
                   "by ':', as in compact_from_level:2; RocksDB reads '=' in filter_policy as an "
                   "option map); expected ") +
           kGrammar},
      {"sstfilter.bloom:10:cache_local:compact_from_levels:2",
       std::string("'sstfilter.bloom:10:cache_local:compact_from_levels:2' is not a "
                   "sstfilter.bloom id: unexpected 'compact_from_levels'; expected ") +
           kGrammar},
  };
  for (const auto& [id, message] : kBad) {
    EXPECT_EQ(ParsePolicyId(id).status().message(), message) << id;
  }
}

// Set directly in C++: the same range and combination rules.
TEST(CompactFromLevelTest, ResolveChecksRangeAndFormat) {
  EXPECT_TRUE(ResolveFilterOptions(WithLevel(EncodingId::kCacheLocal, 0)).ok());
  EXPECT_TRUE(ResolveFilterOptions(WithLevel(EncodingId::kLevelDb, 100)).ok());
  EXPECT_EQ(ResolveFilterOptions(WithLevel(EncodingId::kCacheLocal, -3)).status().message(),
            std::string("sstfilter.bloom: compact_from_level=-3") + kOutOfRange +
                " (flushes always get the fast encoding)");
  EXPECT_EQ(ResolveFilterOptions(WithLevel(EncodingId::kCacheLocal, 101)).status().message(),
            std::string("sstfilter.bloom: compact_from_level=101") + kOutOfRange);
  EXPECT_THAT(std::string(
                  ResolveFilterOptions(WithLevel(EncodingId::kCompact, 1)).status().message()),
              HasSubstr("compact_from_level=1 with format=compact"));
}

// The LevelDB-shaped policy builds filters with no table, so no level.
TEST(CompactFromLevelTest, LevelFreePolicyRefusesIt) {
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy =
      NewFilterPolicy(WithLevel(EncodingId::kCacheLocal, 2));
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.status().message(),
            "sstfilter.bloom: compact_from_level=2 needs a host that tells the policy each "
            "table's level (RocksDB); this policy (and LevelDB's) is never told which table it "
            "builds for: drop compact_from_level, or choose format=compact for every table");
  EXPECT_TRUE(NewFilterPolicy(WithLevel(EncodingId::kCacheLocal, std::nullopt)).ok());
}

}  // namespace
}  // namespace sstfilter
