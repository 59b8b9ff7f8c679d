#include "filter/filter_options.h"

#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "filter/bloom_math.h"
#include "filter/filter_policy.h"
#include "filter/option_fields.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/option_field_parse.h"

namespace sstfilter {
namespace {

using ::testing::HasSubstr;
using testing::ParseField;

// Each id (first) is rejected with a message containing its text (second).
template <size_t N>
void ExpectIdsRejected(const std::pair<const char*, const char*> (&cases)[N]) {
  for (const auto& [id, want] : cases) {
    absl::StatusOr<FilterOptions> options = ParsePolicyId(id);
    ASSERT_FALSE(options.ok()) << id;
    EXPECT_THAT(std::string(options.status().message()), HasSubstr(want)) << id;
  }
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

FilterOptions WithBits(double bits_per_key) {
  FilterOptions options;
  options.bits_per_key = bits_per_key;
  return options;
}

FilterOptions WithFp(double fp_rate) {
  FilterOptions options;
  options.fp_rate = fp_rate;
  return options;
}

// The options' check, as policies run it.
absl::Status Check(const FilterOptions& options) { return ResolveFilterOptions(options).status(); }

TEST(BloomOptionsTest, DefaultIsTenBitsPerKey) {
  EXPECT_TRUE(Check(FilterOptions()).ok());
  EXPECT_EQ(FilterOptions().bits_per_key, 10.0);
  EXPECT_FALSE(FilterOptions().fp_rate.has_value());
  EXPECT_EQ(FilterOptions().encoding, EncodingId::kLevelDb);
}

TEST(BloomOptionsTest, AcceptsBitsPerKeyInRange) {
  for (double b : {kMinBitsPerKey, 1.0, 9.5, 10.0, 30.0, kMaxBitsPerKey}) {
    absl::StatusOr<FilterOptions> resolved = ResolveFilterOptions(WithBits(b));
    ASSERT_TRUE(resolved.ok()) << b << ": " << resolved.status();
    EXPECT_EQ(resolved->bits_per_key, b);
  }
}

// The policy keeps the FP target (each filter's bits follow from it and
// the filter's size, filter/fp_target.h), so its id says what was asked.
TEST(BloomOptionsTest, FpRateIsKeptAndReplacesBitsPerKey) {
  FilterOptions options = WithFp(0.01);
  options.bits_per_key = 20;
  absl::StatusOr<FilterOptions> resolved = ResolveFilterOptions(options);
  ASSERT_TRUE(resolved.ok()) << resolved.status();
  EXPECT_EQ(resolved->fp_rate, 0.01);
  EXPECT_EQ(FormatPolicyId(*resolved), "sstfilter.bloom:fp_rate:0.01");
}

TEST(BloomOptionsTest, FpRateIdsParseAndRoundTrip) {
  for (const char* id : {"sstfilter.bloom:fp_rate:0.01", "sstfilter.bloom:fp_rate:0.001:cache_local",
                         "sstfilter.bloom:fp_rate:0.005:cache_local:compact_from_level:2",
                         "sstfilter.bloom:fp_rate:1e-06:compact"}) {
    absl::StatusOr<FilterOptions> options = ParsePolicyId(id);
    ASSERT_TRUE(options.ok()) << id << ": " << options.status();
    ASSERT_TRUE(options->fp_rate.has_value()) << id;
    EXPECT_EQ(FormatPolicyId(*options), id);
  }
  EXPECT_EQ(ParsePolicyId("sstfilter.bloom:fp_rate:0.01:cache_local")->encoding,
            EncodingId::kCacheLocal);
}

TEST(OptimizeLevelsTest, IdsParseAndRoundTrip) {
  for (const char* id : {"sstfilter.bloom:10:optimize_levels",
                         "sstfilter.bloom:8:cache_local:optimize_levels",
                         "sstfilter.bloom:10:cache_local:compact_from_level:2:optimize_levels"}) {
    absl::StatusOr<FilterOptions> options = ParsePolicyId(id);
    ASSERT_TRUE(options.ok()) << id << ": " << options.status();
    EXPECT_TRUE(options->per_level.optimize_levels) << id;
    EXPECT_EQ(FormatPolicyId(*options), id);
  }
  EXPECT_FALSE(ParsePolicyId("sstfilter.bloom:10")->per_level.optimize_levels);
}

TEST(OptimizeLevelsTest, BadIdsAndCombinationsNameTheProblem) {
  const std::pair<const char*, const char*> kCases[] = {
      {"sstfilter.bloom:10:optimize_levels:optimize_levels", "optimize_levels is given twice"},
      {"sstfilter.bloom:fp_rate:0.01:optimize_levels",
       "optimize_levels with fp_rate=0.01: optimize_levels spends bits_per_key on average"},
  };
  ExpectIdsRejected(kCases);
  EXPECT_EQ(ParseField("optimize_levels", "yes").status().message(),
            "sstfilter.bloom: optimize_levels=yes is not a boolean; expected true or false");
  EXPECT_TRUE(ParseField("optimize_levels", "true")->per_level.optimize_levels);
  EXPECT_FALSE(ParseField("optimize_levels", "false")->per_level.optimize_levels);
}

TEST(AccessAwareTest, IdsParseAndRoundTrip) {
  for (const char* id : {"sstfilter.bloom:10:optimize_levels:access_aware",
                         "sstfilter.bloom:8:banded:compact_from_level:2:optimize_levels:access_aware"}) {
    absl::StatusOr<FilterOptions> options = ParsePolicyId(id);
    ASSERT_TRUE(options.ok()) << id << ": " << options.status();
    EXPECT_TRUE(options->per_level.optimize_levels && options->per_level.access_aware) << id;
    EXPECT_EQ(FormatPolicyId(*options), id);
  }
  EXPECT_FALSE(ParsePolicyId("sstfilter.bloom:10:optimize_levels")->per_level.access_aware);
}

TEST(AccessAwareTest, BadIdsAndCombinationsNameTheProblem) {
  const std::pair<const char*, const char*> kCases[] = {
      {"sstfilter.bloom:10:access_aware",
       "access_aware without optimize_levels: access-aware allocation weighs the per-level "
       "allocation by traffic; add optimize_levels "
       "(sstfilter.bloom:10:optimize_levels:access_aware)"},
      {"sstfilter.bloom:10:optimize_levels:access_aware:2",
       "access_aware takes no value (unexpected '2')"},
  };
  ExpectIdsRejected(kCases);
  // Set alone through an option map.
  FilterOptions options;
  options.per_level.access_aware = true;
  absl::StatusOr<FilterOptions> resolved = ResolveFilterOptions(options);
  ASSERT_FALSE(resolved.ok());
  EXPECT_THAT(std::string(resolved.status().message()),
              HasSubstr("access_aware without optimize_levels"));
  EXPECT_EQ(ParseField("access_aware", "1").status().message(),
            "sstfilter.bloom: access_aware=1 is not a boolean; expected true or false");
}

TEST(BudgetTest, IdsParseAndRoundTrip) {
  for (const char* id : {"sstfilter.bloom:10:optimize_levels:budget_mb:256",
                         "sstfilter.bloom:12:cache_local:optimize_levels:access_aware:budget_mb:0.5"}) {
    absl::StatusOr<FilterOptions> options = ParsePolicyId(id);
    ASSERT_TRUE(options.ok()) << id << ": " << options.status();
    ASSERT_TRUE(options->per_level.budget_mb.has_value()) << id;
    EXPECT_EQ(FormatPolicyId(*options), id);
  }
  EXPECT_EQ(ParsePolicyId("sstfilter.bloom:10:optimize_levels:budget_mb:256")->per_level.budget_mb,
            256);
  EXPECT_FALSE(
      ParsePolicyId("sstfilter.bloom:10:optimize_levels")->per_level.budget_mb.has_value());
}

TEST(BudgetTest, BadIdsAndCombinationsNameTheProblem) {
  const std::pair<const char*, const char*> kCases[] = {
      {"sstfilter.bloom:10:budget_mb:64",
       "budget_mb without optimize_levels: the budget is spent by the per-level allocation; add "
       "optimize_levels (sstfilter.bloom:10:optimize_levels:budget_mb:64)"},
      {"sstfilter.bloom:10:optimize_levels:budget_mb", "budget_mb needs a value (budget_mb:<MiB>)"},
      {"sstfilter.bloom:10:optimize_levels:budget_mb:0", "budget_mb=0 is out of range"},
      {"sstfilter.bloom:10:optimize_levels:budget_mb:-5", "budget_mb=-5 is out of range"},
      {"sstfilter.bloom:10:optimize_levels:budget_mb:1e20", "budget_mb=1e20 is out of range"},
      {"sstfilter.bloom:10:optimize_levels:budget_mb:none", "budget_mb=none is out of range"},
      {"sstfilter.bloom:10:optimize_levels:budget_mb:64MB", "budget_mb=64MB is not a number"},
  };
  ExpectIdsRejected(kCases);
  FilterOptions options;
  options.per_level.budget_mb = 64;
  absl::StatusOr<FilterOptions> resolved = ResolveFilterOptions(options);
  ASSERT_FALSE(resolved.ok());
  EXPECT_THAT(std::string(resolved.status().message()),
              HasSubstr("budget_mb without optimize_levels"));
  options.per_level.optimize_levels = true;
  options.per_level.budget_mb = 0;
  resolved = ResolveFilterOptions(options);
  ASSERT_FALSE(resolved.ok());
  EXPECT_THAT(std::string(resolved.status().message()), HasSubstr("budget_mb=0 is out of range"));
}

// The fields after the accuracy go in any order: each order parses to the
// same options, written back in the one order FormatPolicyId writes.
TEST(BloomOptionsTest, FieldsInAnyOrderParseToTheSamePolicy) {
  const std::pair<const char*, const char*> kOrders[] = {
      {"sstfilter.bloom:10:banded:optimize_levels:cache_aware:hit_share:0.5:cache_share:0.25",
       "sstfilter.bloom:10:banded:optimize_levels:cache_aware:cache_share:0.25:hit_share:0.5"},
      {"sstfilter.bloom:10:optimize_levels:budget_mb:64:access_aware",
       "sstfilter.bloom:10:optimize_levels:access_aware:budget_mb:64"},
      {"sstfilter.bloom:10:optimize_levels:cache_aware:budget_mb:8",
       "sstfilter.bloom:10:optimize_levels:budget_mb:8:cache_aware"},
      {"sstfilter.bloom:10:compact_from_level:2:cache_local",
       "sstfilter.bloom:10:cache_local:compact_from_level:2"},
      {"sstfilter.bloom:10:cache_aware:hit_share:1:optimize_levels:banded",
       "sstfilter.bloom:10:banded:optimize_levels:cache_aware:hit_share:1"},
      {"sstfilter.bloom:fp_rate:0.01:compact_from_level:3:cache_local",
       "sstfilter.bloom:fp_rate:0.01:cache_local:compact_from_level:3"},
  };
  for (const auto& [given, canonical] : kOrders) {
    absl::StatusOr<FilterOptions> a = ParsePolicyId(given);
    absl::StatusOr<FilterOptions> b = ParsePolicyId(canonical);
    ASSERT_TRUE(a.ok()) << given << ": " << a.status();
    ASSERT_TRUE(b.ok()) << canonical << ": " << b.status();
    EXPECT_EQ(*a, *b) << given;
    EXPECT_EQ(FormatPolicyId(*a), canonical) << given;
  }
  const std::pair<const char*, const char*> kBad[] = {
      {"sstfilter.bloom:10:banded:optimize_levels:leveldb",
       "format is given twice in 'sstfilter.bloom:10:banded:optimize_levels:leveldb' (banded, "
       "then leveldb)"},
      // A repeat without its value lacks the value first.
      {"sstfilter.bloom:10:compact_from_level:2:compact_from_level",
       "compact_from_level needs a value (compact_from_level:<level>)"},
      // The map form's names of the accuracy and the encoding are no id words.
      {"sstfilter.bloom:10:banded:format", "unexpected 'format'"},
      {"sstfilter.bloom:10:banded:bits_per_key:12", "unexpected 'bits_per_key'"},
  };
  ExpectIdsRejected(kBad);
}

TEST(CacheAwareTest, IdsParseAndRoundTrip) {
  for (const char* id :
       {"sstfilter.bloom:10:optimize_levels:cache_aware",
        "sstfilter.bloom:10:banded:optimize_levels:cache_aware:cache_share:0.25",
        "sstfilter.bloom:10:optimize_levels:cache_aware:hit_share:0",
        "sstfilter.bloom:12:cache_local:optimize_levels:access_aware:budget_mb:8:cache_aware:"
        "cache_share:1:hit_share:0.9",
        "sstfilter.bloom:10:optimize_levels:cache_aware:rebuild_mb_s:0",
        "sstfilter.bloom:10:optimize_levels:cache_aware:hit_share:0:rebuild_mb_s:64"}) {
    absl::StatusOr<FilterOptions> options = ParsePolicyId(id);
    ASSERT_TRUE(options.ok()) << id << ": " << options.status();
    EXPECT_TRUE(options->per_level.cache_aware) << id;
    EXPECT_EQ(FormatPolicyId(*options), id);
  }
  // The per-level plan without a cache rebuilds too (filter/plan/fp_rebuilds.h).
  const char* without_cache = "sstfilter.bloom:10:optimize_levels:budget_mb:2:rebuild_mb_s:4";
  absl::StatusOr<FilterOptions> options = ParsePolicyId(without_cache);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->per_level.rebuild_mb_s, 4.0);
  EXPECT_EQ(FormatPolicyId(*options), without_cache);
  const absl::StatusOr<FilterOptions> both =
      ParsePolicyId("sstfilter.bloom:10:optimize_levels:cache_aware:cache_share:0.5:hit_share:0.2");
  ASSERT_TRUE(both.ok()) << both.status();
  EXPECT_EQ(both->per_level.cache_share, 0.5);
  EXPECT_EQ(both->per_level.hit_share, 0.2);
  const absl::StatusOr<FilterOptions> plain = ParsePolicyId("sstfilter.bloom:10:optimize_levels");
  EXPECT_FALSE(plain->per_level.cache_aware);
  EXPECT_FALSE(plain->per_level.cache_share.has_value());
  EXPECT_FALSE(plain->per_level.hit_share.has_value());
}

TEST(CacheAwareTest, BadIdsAndCombinationsNameTheProblem) {
  const std::pair<const char*, const char*> kCases[] = {
      {"sstfilter.bloom:10:cache_aware", "cache_aware without optimize_levels"},
      {"sstfilter.bloom:10:optimize_levels:cache_aware:cache_share",
       "cache_share needs a value (cache_share:<F>)"},
      {"sstfilter.bloom:10:optimize_levels:cache_aware:cache_share:0",
       "cache_share=0 is out of range; expected a share in [0.001, 1]"},
      {"sstfilter.bloom:10:optimize_levels:cache_aware:cache_share:-0.5",
       "cache_share=-0.5 is out of range"},
      {"sstfilter.bloom:10:optimize_levels:cache_aware:cache_share:1.5",
       "cache_share=1.5 is out of range"},
      {"sstfilter.bloom:10:optimize_levels:cache_aware:cache_share:half",
       "cache_share=half is not a number"},
      {"sstfilter.bloom:10:optimize_levels:cache_aware:cache_share:none",
       "cache_share=none is out of range"},
      {"sstfilter.bloom:10:optimize_levels:cache_aware:hit_share:-1",
       "hit_share=-1 is out of range; expected a share in [0, 1]"},
      {"sstfilter.bloom:10:optimize_levels:cache_aware:hit_share:nan",
       "hit_share=nan is out of range"},
      {"sstfilter.bloom:10:optimize_levels:cache_share:0.5",
       "cache_share without cache_aware: the share describes the block cache the filters are "
       "sized for; add cache_aware (sstfilter.bloom:10:optimize_levels:cache_aware:"
       "cache_share:0.5)"},
      {"sstfilter.bloom:10:optimize_levels:cache_aware:rebuild_mb_s:-1",
       "rebuild_mb_s=-1 is out of range; expected MiB a second in [0, 1048576] (0: no rewrites)"},
      {"sstfilter.bloom:10:optimize_levels:cache_aware:rebuild_mb_s:fast",
       "rebuild_mb_s=fast is not a number"},
      {"sstfilter.bloom:10:rebuild_mb_s:8",
       "rebuild_mb_s without optimize_levels: the rewrites bring tables to the per-level plan"},
      // Values that mean nothing: a cache of no bytes, a budget of none.
      {"sstfilter.bloom:10:optimize_levels:cache_aware:cache_share:4.9e-324",
       "cache_share=4.9e-324 is out of range; expected a share in [0.001, 1]"},
      {"sstfilter.bloom:10:optimize_levels:cache_aware:cache_share:0.0009",
       "cache_share=0.0009 is out of range"},
      {"sstfilter.bloom:10:optimize_levels:budget_mb:4.9e-324",
       "budget_mb=4.9e-324 is out of range; expected MiB in [0.001, 1073741824]"},
      // A field given twice is named as such.
      {"sstfilter.bloom:10:optimize_levels:cache_aware:hit_share:0.5:hit_share:0.5",
       "hit_share is given twice"},
      {"sstfilter.bloom:10:optimize_levels:budget_mb:8:budget_mb:8", "budget_mb is given twice"},
      {"sstfilter.bloom:10:optimize_levels:access_aware:access_aware",
       "access_aware is given twice"},
  };
  ExpectIdsRejected(kCases);
  FilterOptions options;
  options.per_level.cache_aware = true;
  absl::StatusOr<FilterOptions> resolved = ResolveFilterOptions(options);
  ASSERT_FALSE(resolved.ok());
  EXPECT_THAT(std::string(resolved.status().message()),
              HasSubstr("cache_aware without optimize_levels"));
  options = FilterOptions();
  options.per_level.optimize_levels = true;
  options.per_level.hit_share = 0.5;
  resolved = ResolveFilterOptions(options);
  ASSERT_FALSE(resolved.ok());
  EXPECT_THAT(std::string(resolved.status().message()), HasSubstr("hit_share without cache_aware"));
  options.per_level.cache_aware = true;
  options.per_level.cache_share = 0;
  resolved = ResolveFilterOptions(options);
  ASSERT_FALSE(resolved.ok());
  EXPECT_THAT(std::string(resolved.status().message()),
              HasSubstr("cache_share=0 is out of range"));
  EXPECT_EQ(ParseField("cache_share", "none")->per_level.cache_share, std::nullopt);
  EXPECT_EQ(ParseField("hit_share", "0")->per_level.hit_share, 0.0);
  EXPECT_EQ(ParseField("cache_aware", "yes").status().message(),
            "sstfilter.bloom: cache_aware=yes is not a boolean; expected true or false");
}

// The option table's host column and the options' layout say the same:
// exactly the fields only RocksDB's policy takes live in the per-level
// part, which the LevelDB-shaped policy refuses whole.
TEST(BloomOptionsTest, TableAwareFieldsAreThePerLevelPart) {
  const std::map<std::string_view, std::string_view> example = {
      {"bits_per_key", "12"},      {"fp_rate", "0.01"},         {"format", "banded"},
      {"compact_from_level", "2"}, {"optimize_levels", "true"}, {"access_aware", "true"},
      {"budget_mb", "1"},          {"cache_aware", "true"},     {"cache_share", "0.5"},
      {"hit_share", "0.5"},        {"rebuild_mb_s", "4"}};
  ASSERT_EQ(OptionFields().size(), example.size());
  for (const OptionField& field : OptionFields()) {
    SCOPED_TRACE(field.name);
    const absl::StatusOr<FilterOptions> parsed = ParseField(field.name, example.at(field.name));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    const bool table_aware = field.host == OptionHost::kTableAware;
    EXPECT_EQ(!(parsed->per_level == PerLevelOptions{}), table_aware);
    FilterOptions host_free = *parsed;
    host_free.per_level = PerLevelOptions{};
    EXPECT_EQ(host_free == FilterOptions{}, table_aware);
    EXPECT_EQ(CheckHostFree(*parsed).ok(), !table_aware);
  }
}

// The LevelDB-shaped policy is never told a table's level or the tree.
TEST(OptimizeLevelsTest, LevelFreePolicyRefusesIt) {
  FilterOptions options;
  options.per_level.optimize_levels = true;
  absl::StatusOr<std::unique_ptr<const FilterPolicy>> policy = NewFilterPolicy(options);
  ASSERT_FALSE(policy.ok());
  EXPECT_THAT(std::string(policy.status().message()),
              HasSubstr("optimize_levels needs a host that tells the policy each table's level"));
}

TEST(BloomOptionsTest, BadFpRateIdsNameTheProblem) {
  const std::pair<const char*, const char*> kCases[] = {
      {"sstfilter.bloom:fp_rate", "fp_rate needs a value (fp_rate:<p>)"},
      {"sstfilter.bloom:fp_rate:2", "fp_rate=2 is out of range; expected a number in (0, 1)"},
      {"sstfilter.bloom:fp_rate:none", "fp_rate=none is out of range"},
      {"sstfilter.bloom:fp_rate:1%", "fp_rate=1% is not a number"},
      {"sstfilter.bloom:10:fp_rate:0.01", "fp_rate takes the place of <bits_per_key>"},
      {"sstfilter.bloom:fp_rate:1e-30:cache_local",
       "fp_rate=1e-30 is below what format=cache_local reaches at 100 bits/key"},
      {"sstfilter.bloom:fp_rate:1e-30:leveldb:compact_from_level:1",
       "fp_rate=1e-30 is below what format=leveldb reaches"},
  };
  ExpectIdsRejected(kCases);
}

struct BadValue {
  double value;
  std::string named;  // What the error message must contain.
};

// Test names from the value: "bits_per_key_1e_300".
std::string BadValueName(const ::testing::TestParamInfo<BadValue>& info) {
  std::string name = info.param.named;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class BadBitsPerKeyTest : public ::testing::TestWithParam<BadValue> {};

TEST_P(BadBitsPerKeyTest, IsRejectedNamingTheValue) {
  absl::Status bits = Check(WithBits(GetParam().value));
  ASSERT_FALSE(bits.ok()) << "accepted bits_per_key=" << GetParam().value;
  EXPECT_EQ(bits.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bits.message()), HasSubstr(GetParam().named));
}

INSTANTIATE_TEST_SUITE_P(
    All, BadBitsPerKeyTest,
    ::testing::Values(BadValue{kNaN, "bits_per_key=nan"},
                      BadValue{kInf, "bits_per_key=inf"},
                      BadValue{-kInf, "bits_per_key=-inf"},
                      BadValue{0.0, "bits_per_key=0"},
                      BadValue{-0.0, "bits_per_key=-0"},
                      BadValue{-1.0, "bits_per_key=-1"},
                      BadValue{100.5, "bits_per_key=100.5"},
                      // Below one bit per key a filter passes most absent
                      // keys: values that mean nothing (kMinBitsPerKey).
                      BadValue{0.999, "bits_per_key=0.999"},
                      BadValue{0.001, "bits_per_key=0.001"},
                      BadValue{1e-200, "bits_per_key=1e-200"},
                      BadValue{1e300, "bits_per_key=1e+300"}),
    BadValueName);

class BadFpRateTest : public ::testing::TestWithParam<BadValue> {};

TEST_P(BadFpRateTest, IsRejectedNamingTheValue) {
  absl::Status bits = Check(WithFp(GetParam().value));
  ASSERT_FALSE(bits.ok()) << "accepted fp_rate=" << GetParam().value;
  EXPECT_EQ(bits.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bits.message()), HasSubstr(GetParam().named));
}

INSTANTIATE_TEST_SUITE_P(
    All, BadFpRateTest,
    ::testing::Values(BadValue{kNaN, "fp_rate=nan"},
                      BadValue{kInf, "fp_rate=inf"},
                      BadValue{-kInf, "fp_rate=-inf"},
                      BadValue{0.0, "fp_rate=0"},
                      BadValue{-0.01, "fp_rate=-0.01"},
                      BadValue{1.0, "fp_rate=1"},
                      BadValue{1.5, "fp_rate=1.5"},
                      // Below what 100 bits/key reach (a standard Bloom
                      // filter would need 105 bits/key).
                      BadValue{1e-22, "fp_rate=1e-22"},
                      BadValue{std::numeric_limits<double>::denorm_min(),
                               "fp_rate=4.94066e-324"}),
    BadValueName);

// The least values that mean something are taken; a level's leading zeros
// are the same level; a share of -0 is 0.
TEST(BloomOptionsTest, TheLeastMeaningfulValuesAreTaken) {
  const absl::StatusOr<FilterOptions> least = ParsePolicyId(
      "sstfilter.bloom:1:optimize_levels:budget_mb:0.001:cache_aware:cache_share:0.001:"
      "hit_share:-0");
  ASSERT_TRUE(least.ok()) << least.status();
  EXPECT_EQ(least->bits_per_key, kMinBitsPerKey);
  EXPECT_EQ(least->per_level.budget_mb, kMinBudgetMb);
  EXPECT_EQ(least->per_level.cache_share, kMinCacheShare);
  EXPECT_FALSE(std::signbit(*least->per_level.hit_share)) << "-0 is kept as 0";
  EXPECT_EQ(FormatPolicyId(*least).find("hit_share:-0"), std::string::npos);
  const absl::StatusOr<FilterOptions> level =
      ParsePolicyId("sstfilter.bloom:10:cache_local:compact_from_level:00006");
  ASSERT_TRUE(level.ok()) << level.status();
  EXPECT_EQ(level->per_level.compact_from_level, 6);
}

// One bad value gets one message whichever way it arrives: as a number in
// FilterOptions, as text in a value, inside a policy id, or through the
// LevelDB-shaped policy factory.
TEST(BloomOptionsTest, OneMessagePerBadValue) {
  for (const char* text : {"0", "-1", "101", "nan", "inf"}) {
    double value = 0;
    ASSERT_TRUE(absl::SimpleAtod(text, &value)) << text;
    const std::string want = std::string("sstfilter.bloom: bits_per_key=") + text +
                             " is out of range; expected a number in [1, 100]";
    EXPECT_EQ(Check(WithBits(value)).message(), want);
    EXPECT_EQ(ParseBitsPerKeyValue(text).status().message(), want);
    EXPECT_EQ(ParsePolicyId(std::string("sstfilter.bloom:") + text).status().message(),
              want);
    EXPECT_EQ(NewFilterPolicy(WithBits(value)).status().message(), want);
  }
  const std::string format =
      "sstfilter.bloom: format=ribbon is unknown; expected " + EncodingNameList();
  EXPECT_EQ(ParseEncodingValue("ribbon").status().message(), format);
  EXPECT_EQ(ParsePolicyId("sstfilter.bloom:10:ribbon").status().message(), format);
  EXPECT_EQ(ParseBitsPerKeyValue("").status().message(),
            "sstfilter.bloom: bits_per_key='' is not a number");
  EXPECT_EQ(ParsePolicyId("sstfilter.bloom:").status().message(),
            "sstfilter.bloom: bits_per_key='' is not a number");
}

// bits_per_key text is a plain decimal number: what SimpleAtod would also
// take (hex, a '+' sign, surrounding spaces) is refused, naming the text.
TEST(BloomOptionsTest, BitsPerKeyTextIsPlainDecimal) {
  for (const char* bad : {"0x10", "+10", " 10", "10 ", "1e", "1e+", ".", "-", "1.2.3", "10,5",
                          "1_0", "infinity"}) {
    EXPECT_EQ(ParseBitsPerKeyValue(bad).status().message(),
              std::string("sstfilter.bloom: bits_per_key=") + bad + " is not a number")
        << bad;
  }
  for (const auto& [text, value] : std::vector<std::pair<const char*, double>>{
           {"10", 10}, {"7.5", 7.5}, {".5e1", 5}, {"10.", 10}, {"1e1", 10}, {"1E+1", 10},
           {"25e-1", 2.5}, {"0010", 10}}) {
    absl::StatusOr<double> parsed = ParseBitsPerKeyValue(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status();
    EXPECT_EQ(*parsed, value) << text;
  }
}

// A cast integer that is no EncodingId is refused, not taken for one.
TEST(BloomOptionsTest, UnknownFormatValueIsRejected) {
  FilterOptions options;
  options.encoding = static_cast<EncodingId>(7);
  EXPECT_EQ(ResolveFilterOptions(options).status().message(),
            "sstfilter.bloom: format=7 is not an EncodingId; expected " + EncodingNameList());
  EXPECT_FALSE(NewFilterPolicy(options).ok());
}

TEST(BloomOptionsTest, PolicyIdsParseAndRoundTrip) {
  absl::StatusOr<FilterOptions> defaults = ParsePolicyId("sstfilter.bloom");
  ASSERT_TRUE(defaults.ok()) << defaults.status();
  EXPECT_EQ(*defaults, FilterOptions());
  absl::StatusOr<FilterOptions> cl = ParsePolicyId("sstfilter.bloom:7.5:cache_local");
  ASSERT_TRUE(cl.ok()) << cl.status();
  EXPECT_EQ(cl->bits_per_key, 7.5);
  EXPECT_EQ(cl->encoding, EncodingId::kCacheLocal);
  EXPECT_EQ(FormatPolicyId(*cl), "sstfilter.bloom:7.5:cache_local");
  EXPECT_EQ(FormatPolicyId(FilterOptions()), "sstfilter.bloom:10");
  for (const char* bad : {"bloomfilter:10", "sstfilter.bloomx:10", "sstfilter.bloom:10:leveldb:x"}) {
    EXPECT_FALSE(ParsePolicyId(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace sstfilter
