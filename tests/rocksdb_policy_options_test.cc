// The policy as RocksDB users configure it: option strings, ids, errors.
#include <memory>
#include <string>

#include "filter/filter_options.h"
#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "table/rocksdb/registration.h"
#include "table/rocksdb/rocksdb_filter_policy.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {
namespace {

class PolicyOptionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    EnsureRocksDbFilterPoliciesRegistered();
    config_.ignore_unknown_options = false;
    config_.input_strings_escaped = false;
  }

  rocksdb::Status TableOptionsFrom(const std::string& text,
                                   rocksdb::BlockBasedTableOptions* out) {
    return rocksdb::GetBlockBasedTableOptionsFromString(config_, {}, text, out);
  }

  rocksdb::ConfigOptions config_;
};

TEST_F(PolicyOptionsTest, ShortIdResolves) {
  rocksdb::BlockBasedTableOptions table;
  ASSERT_TRUE(TableOptionsFrom("filter_policy=sstfilter.bloom:10", &table).ok());
  ASSERT_NE(table.filter_policy, nullptr);
  EXPECT_STREQ(table.filter_policy->Name(), "sstfilter.bloom");
  EXPECT_STREQ(table.filter_policy->CompatibilityName(), "sstfilter.bloom");
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:10");
}

TEST_F(PolicyOptionsTest, FractionalBitsAndFormatInId) {
  rocksdb::BlockBasedTableOptions table;
  ASSERT_TRUE(TableOptionsFrom("filter_policy=sstfilter.bloom:7.5:cache_local", &table).ok());
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:7.5:cache_local");
}

TEST_F(PolicyOptionsTest, MapFormResolves) {
  rocksdb::BlockBasedTableOptions table;
  rocksdb::Status s = TableOptionsFrom(
      "filter_policy={id=sstfilter.bloom;bits_per_key=12;format=leveldb}", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:12");

  s = TableOptionsFrom("filter_policy={id=sstfilter.bloom;format=cache_local}", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:10:cache_local");
}

TEST_F(PolicyOptionsTest, FpRateInIdAndMap) {
  rocksdb::BlockBasedTableOptions table;
  rocksdb::Status s = TableOptionsFrom("filter_policy=sstfilter.bloom:fp_rate:0.005", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:fp_rate:0.005");

  s = TableOptionsFrom("filter_policy={id=sstfilter.bloom;fp_rate=0.01;format=compact}", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:fp_rate:0.01:compact");

  // A set fp_rate replaces bits_per_key (RocksDB writes both out); "none"
  // leaves bits_per_key in charge.
  s = TableOptionsFrom("filter_policy={id=sstfilter.bloom;bits_per_key=12;fp_rate=0.02}", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:fp_rate:0.02");
  s = TableOptionsFrom("filter_policy={id=sstfilter.bloom;bits_per_key=12;fp_rate=none}", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:12");
}

TEST_F(PolicyOptionsTest, OptimizeLevelsInIdAndMap) {
  rocksdb::BlockBasedTableOptions table;
  rocksdb::Status s =
      TableOptionsFrom("filter_policy=sstfilter.bloom:10:cache_local:optimize_levels", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:10:cache_local:optimize_levels");
  s = TableOptionsFrom("filter_policy={id=sstfilter.bloom;optimize_levels=true}", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:10:optimize_levels");
  s = TableOptionsFrom("filter_policy={id=sstfilter.bloom;optimize_levels=false}", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:10");
  s = TableOptionsFrom("filter_policy={id=sstfilter.bloom;optimize_levels=1}", &table);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("optimize_levels=1 is not a boolean"), std::string::npos)
      << s.ToString();
}

TEST_F(PolicyOptionsTest, AccessAwareInIdAndMap) {
  rocksdb::BlockBasedTableOptions table;
  rocksdb::Status s = TableOptionsFrom(
      "filter_policy=sstfilter.bloom:10:cache_local:optimize_levels:access_aware", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(),
            "sstfilter.bloom:10:cache_local:optimize_levels:access_aware");
  s = TableOptionsFrom(
      "filter_policy={id=sstfilter.bloom;optimize_levels=true;access_aware=true}", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:10:optimize_levels:access_aware");
  s = TableOptionsFrom(
      "filter_policy={id=sstfilter.bloom;optimize_levels=true;budget_mb=32}", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:10:optimize_levels:budget_mb:32");
  s = TableOptionsFrom("filter_policy={id=sstfilter.bloom;access_aware=true}", &table);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("access_aware without optimize_levels"), std::string::npos)
      << s.ToString();
}

TEST_F(PolicyOptionsTest, CompactFromLevelInIdAndMap) {
  rocksdb::BlockBasedTableOptions table;
  rocksdb::Status s = TableOptionsFrom(
      "filter_policy=sstfilter.bloom:10:cache_local:compact_from_level:2", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:10:cache_local:compact_from_level:2");

  s = TableOptionsFrom(
      "filter_policy={id=sstfilter.bloom;format=cache_local;compact_from_level=3}", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:10:cache_local:compact_from_level:3");

  // "none" is unset: the map form RocksDB writes for a policy without it.
  s = TableOptionsFrom("filter_policy={id=sstfilter.bloom;compact_from_level=none}", &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:10");
}

// Given where a policy is already in force (SetOptions, strings applied on
// top of other options), RocksDB merges the new value with the old policy's
// options: an id without '=' is taken whole.
TEST_F(PolicyOptionsTest, CompactFromLevelOverAPolicyInForce) {
  rocksdb::BlockBasedTableOptions base, table;
  ASSERT_TRUE(TableOptionsFrom("filter_policy=sstfilter.bloom:12", &base).ok());
  rocksdb::Status s = rocksdb::GetBlockBasedTableOptionsFromString(
      config_, base, "filter_policy=sstfilter.bloom:10:cache_local:compact_from_level:2",
      &table);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(table.filter_policy->GetId(), "sstfilter.bloom:10:cache_local:compact_from_level:2");

  std::unique_ptr<rocksdb::TableFactory> factory(rocksdb::NewBlockBasedTableFactory(base));
  s = factory->ConfigureFromString(
      config_, "filter_policy=sstfilter.bloom:10:cache_local:compact_from_level:1");
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(factory->GetOptions<rocksdb::BlockBasedTableOptions>()->filter_policy->GetId(),
            "sstfilter.bloom:10:cache_local:compact_from_level:1");
}

TEST_F(PolicyOptionsTest, WorksInsideFullOptionsString) {
  rocksdb::Options base, options;
  rocksdb::Status s = rocksdb::GetOptionsFromString(
      config_, base,
      "write_buffer_size=1048576;"
      "block_based_table_factory={filter_policy=sstfilter.bloom:16;"
      "partition_filters=true;index_type=kTwoLevelIndexSearch}",
      &options);
  ASSERT_TRUE(s.ok()) << s.ToString();
  auto* table = options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  ASSERT_NE(table, nullptr);
  ASSERT_NE(table->filter_policy, nullptr);
  EXPECT_EQ(table->filter_policy->GetId(), "sstfilter.bloom:16");
  EXPECT_TRUE(table->partition_filters);
}

TEST_F(PolicyOptionsTest, SerializedTableOptionsReloadToSamePolicy) {
  for (const char* id : {"sstfilter.bloom:9.25:cache_local", "sstfilter.bloom:10",
                         "sstfilter.bloom:10:cache_local:compact_from_level:2",
                         "sstfilter.bloom:8:compact_from_level:0",
                         "sstfilter.bloom:fp_rate:0.003:cache_local:compact_from_level:1",
                         "sstfilter.bloom:9:compact_from_level:3:optimize_levels",
                         "sstfilter.bloom:9:optimize_levels:access_aware"}) {
    rocksdb::BlockBasedTableOptions table, reloaded;
    ASSERT_TRUE(TableOptionsFrom(std::string("filter_policy=") + id, &table).ok());
    std::unique_ptr<rocksdb::TableFactory> factory(rocksdb::NewBlockBasedTableFactory(table));
    for (auto depth : {rocksdb::ConfigOptions::kDepthShallow,
                       rocksdb::ConfigOptions::kDepthDetailed}) {
      rocksdb::ConfigOptions config = config_;
      config.depth = depth;
      std::string text;
      ASSERT_TRUE(factory->GetOptionString(config, &text).ok());
      rocksdb::Status s = TableOptionsFrom(text, &reloaded);
      ASSERT_TRUE(s.ok()) << s.ToString() << " from " << text;
      ASSERT_NE(reloaded.filter_policy, nullptr) << text;
      EXPECT_EQ(reloaded.filter_policy->GetId(), id) << text;
    }
  }
}

// access_aware and budget_mb are carried by the id alone: an OPTIONS file
// of a policy without them names no option a build from before them would
// refuse; one with them reloads to the same policy.
TEST_F(PolicyOptionsTest, AccessAwareAndBudgetAreNotWrittenOut) {
  for (const char* id : {"sstfilter.bloom:10:optimize_levels",
                         "sstfilter.bloom:10:optimize_levels:access_aware:budget_mb:64"}) {
    rocksdb::BlockBasedTableOptions table;
    ASSERT_TRUE(TableOptionsFrom(std::string("filter_policy=") + id, &table).ok());
    std::unique_ptr<rocksdb::TableFactory> factory(rocksdb::NewBlockBasedTableFactory(table));
    rocksdb::ConfigOptions config = config_;
    config.depth = rocksdb::ConfigOptions::kDepthDetailed;
    std::string text;
    ASSERT_TRUE(factory->GetOptionString(config, &text).ok());
    EXPECT_EQ(text.find("access_aware="), std::string::npos) << text;
    EXPECT_EQ(text.find("budget_mb="), std::string::npos) << text;
    rocksdb::BlockBasedTableOptions reloaded;
    ASSERT_TRUE(TableOptionsFrom(text, &reloaded).ok()) << text;
    EXPECT_EQ(reloaded.filter_policy->GetId(), id);
    EXPECT_NE(text.find("optimize_levels=true"), std::string::npos) << text;
  }
}

// The filter a policy builds for a fixed set of keys.
std::string FilterBytes(const rocksdb::FilterPolicy& policy) {
  const rocksdb::BlockBasedTableOptions table;
  const rocksdb::FilterBuildingContext context(table);
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder(policy.GetBuilderWithContext(context));
  if (builder == nullptr) return "";
  for (int i = 0; i < 100; ++i) builder->AddKey("key" + std::to_string(i));
  std::unique_ptr<const char[]> buf;
  return builder->Finish(&buf).ToString();
}

struct BadOption {
  std::string name;  // The test's name suffix.
  std::string text;
  std::string must_mention;
};

class BadOptionTest : public PolicyOptionsTest,
                      public ::testing::WithParamInterface<BadOption> {};

TEST_P(BadOptionTest, RejectedWithMessageNamingTheValue) {
  rocksdb::BlockBasedTableOptions table;
  rocksdb::Status s = TableOptionsFrom(GetParam().text, &table);
  ASSERT_FALSE(s.ok()) << GetParam().text;
  EXPECT_NE(s.ToString().find(GetParam().must_mention), std::string::npos)
      << s.ToString();
}

TEST_P(BadOptionTest, RejectedInPlaceKeepsThePolicyInForce) {
  // A live table factory configured in place with a bad string (as
  // SetOptions and option-file loading do) fails and keeps the policy it
  // had: RocksDB restores the factory from its own serialised options, so
  // the policy in force must come back from its id unchanged, ours as well
  // as the built-in one.
  for (const char* id : {"sstfilter.bloom:9.25:cache_local", "sstfilter.bloom:12",
                         "sstfilter.bloom:10:cache_local:compact_from_level:2",
                         "bloomfilter:10:false"}) {
    rocksdb::BlockBasedTableOptions table;
    ASSERT_TRUE(TableOptionsFrom(std::string("filter_policy=") + id, &table).ok()) << id;
    const std::shared_ptr<const rocksdb::FilterPolicy> before = table.filter_policy;
    ASSERT_NE(before, nullptr) << id;
    std::unique_ptr<rocksdb::TableFactory> factory(rocksdb::NewBlockBasedTableFactory(table));
    rocksdb::Status s = factory->ConfigureFromString(config_, GetParam().text);
    ASSERT_FALSE(s.ok()) << GetParam().text;
    const auto* after = factory->GetOptions<rocksdb::BlockBasedTableOptions>();
    ASSERT_NE(after, nullptr);
    ASSERT_NE(after->filter_policy, nullptr) << id << " then " << GetParam().text;
    EXPECT_EQ(after->filter_policy->GetId(), before->GetId()) << GetParam().text;
    // The same policy, not just the same name: it builds the same filters.
    EXPECT_EQ(FilterBytes(*after->filter_policy), FilterBytes(*before)) << id;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Options, BadOptionTest,
    ::testing::Values(
        BadOption{"negative_bits", "filter_policy=sstfilter.bloom:-1", "-1"},
        BadOption{"non_numeric_bits", "filter_policy=sstfilter.bloom:abc", "abc"},
        BadOption{"zero_bits", "filter_policy=sstfilter.bloom:0", "bits_per_key=0 is out of range"},
        BadOption{"nan_bits", "filter_policy=sstfilter.bloom:nan", "nan"},
        BadOption{"huge_bits", "filter_policy=sstfilter.bloom:1e9", "1e9"},
        BadOption{"bits_with_trailing_text", "filter_policy=sstfilter.bloom:10abc", "10abc"},
        BadOption{"unknown_format", "filter_policy=sstfilter.bloom:10:bogus", "bogus"},
        BadOption{"extra_id_field", "filter_policy=sstfilter.bloom:10:leveldb:x",
                  "sstfilter.bloom:10:leveldb:x"},
        BadOption{"map_non_numeric_bits", "filter_policy={id=sstfilter.bloom;bits_per_key=abc}",
                  "abc"},
        BadOption{"map_negative_bits", "filter_policy={id=sstfilter.bloom;bits_per_key=-3}", "-3"},
        BadOption{"map_unknown_format", "filter_policy={id=sstfilter.bloom;format=ribbon}",
                  "ribbon"},
        BadOption{"map_unknown_option", "filter_policy={id=sstfilter.bloom;no_such_option=1}",
                  "unknown option 'no_such_option' (value '1'); expected bits_per_key, fp_rate, "
                  "format, compact_from_level, optimize_levels, access_aware, budget_mb, "
                  "cache_aware, cache_share, hit_share or rebuild_mb_s"},
        BadOption{"negative_level",
                  "filter_policy=sstfilter.bloom:10:cache_local:compact_from_level:-1",
                  "compact_from_level=-1 is out of range"},
        BadOption{"non_integer_level",
                  "filter_policy=sstfilter.bloom:10:cache_local:compact_from_level:1.5",
                  "compact_from_level=1.5 is not a level"},
        BadOption{"empty_level", "filter_policy=sstfilter.bloom:10:cache_local:compact_from_level:",
                  "compact_from_level='' is not a level"},
        BadOption{"missing_level", "filter_policy=sstfilter.bloom:10:compact_from_level",
                  "compact_from_level needs a value"},
        BadOption{"huge_level",
                  "filter_policy=sstfilter.bloom:10:cache_local:compact_from_level:101",
                  "compact_from_level=101 is out of range"},
        BadOption{"level_twice",
                  "filter_policy=sstfilter.bloom:10:compact_from_level:1:compact_from_level:2",
                  "compact_from_level is given twice"},
        BadOption{"level_with_compact_format",
                  "filter_policy=sstfilter.bloom:10:compact:compact_from_level:2",
                  "compact_from_level=2 with format=compact"},
        // An '=' in an id: RocksDB splits it into an option name and value
        // when a policy is in force (RejectedInPlace...), else we see it.
        BadOption{"level_with_equals",
                  "filter_policy=sstfilter.bloom:10:cache_local:compact_from_level=2",
                  "compact_from_level:2"},
        BadOption{"map_negative_level", "filter_policy={id=sstfilter.bloom;compact_from_level=-2}",
                  "compact_from_level=-2 is out of range"},
        BadOption{"map_empty_level", "filter_policy={id=sstfilter.bloom;compact_from_level=}",
                  "compact_from_level='' is not a level"},
        BadOption{"map_non_integer_level",
                  "filter_policy={id=sstfilter.bloom;compact_from_level=two}",
                  "compact_from_level=two is not a level"},
        BadOption{"map_level_with_compact_format",
                  "filter_policy={id=sstfilter.bloom;format=compact;compact_from_level=2}",
                  "compact_from_level=2 with format=compact"},
        BadOption{"map_compact_format_over_level_id",
                  "filter_policy={id=sstfilter.bloom:10:compact_from_level:2;format=compact}",
                  "compact_from_level=2 with format=compact"}),
    [](const ::testing::TestParamInfo<BadOption>& info) { return info.param.name; });

TEST(NewRocksDbBloomPolicyTest, RejectsBadOptions) {
  FilterOptions options;
  options.bits_per_key = -2;
  auto policy = NewRocksDbFilterPolicy(options);
  ASSERT_FALSE(policy.ok());
  EXPECT_NE(policy.status().message().find("-2"), std::string::npos);

  options = FilterOptions();
  options.fp_rate = 1.5;
  policy = NewRocksDbFilterPolicy(options);
  ASSERT_FALSE(policy.ok());
  EXPECT_NE(policy.status().message().find("1.5"), std::string::npos);
}

// The id says what was asked: the target, not the bits of one filter size.
TEST(NewRocksDbBloomPolicyTest, FpRateIsKeptInTheId) {
  FilterOptions options;
  options.fp_rate = 0.01;
  options.encoding = EncodingId::kCacheLocal;
  auto policy = NewRocksDbFilterPolicy(options);
  ASSERT_TRUE(policy.ok());
  EXPECT_EQ((*policy)->GetId(), "sstfilter.bloom:fp_rate:0.01:cache_local");
}

TEST(PolicyIdTest, RoundTrips) {
  for (double bits : {1.0, 10.0, 7.5, 9.585058377367439, 1.001, 100.0}) {
    for (EncodingId encoding : AllEncodingIds()) {
      for (std::optional<int> level : {std::optional<int>(), std::optional<int>(0),
                                       std::optional<int>(3)}) {
        if (level.has_value() && encoding == EncodingId::kCompact) continue;
        FilterOptions config{bits, std::nullopt, encoding, level};
        absl::StatusOr<FilterOptions> back = ParsePolicyId(FormatPolicyId(config));
        ASSERT_TRUE(back.ok()) << FormatPolicyId(config);
        EXPECT_EQ(*back, config) << FormatPolicyId(config);
      }
    }
  }
}

}  // namespace
}  // namespace sstfilter
