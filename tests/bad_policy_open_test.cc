// A filter_policy string that names sstfilter.bloom but is bad must never
// leave a DB running without the filter it asks for, whichever way RocksDB
// parses it. Under RocksDB's default ConfigOptions (what OPTIONS files,
// GetOptionsFromString and the stock tools use) the table factory drops a
// filter policy's parse error; so either the parse fails or DB::Open does,
// with a message naming the bad value. A good string in the same paths
// gives exactly the policy it names (the control).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/options_util.h"
#include "table/census/open_db.h"
#include "table/rocksdb/registration.h"
#include "table/census/census_listener.h"
#include "tests/db_test_util.h"
#include "tests/warning_log.h"

namespace sstfilter {
namespace {

struct BadPolicy {
  std::string name;  // The test's name suffix.
  std::string text;  // The filter_policy value.
  std::string must_mention;
};

// The first error the user meets: the parse's, else DB::Open's.
rocksdb::Status OpenWith(const rocksdb::Status& parsed, const rocksdb::Options& options,
                         const std::string& path) {
  if (!parsed.ok()) return parsed;
  std::unique_ptr<rocksdb::DB> db;
  return OpenDb(options, path, &db);
}

std::string PolicyIdOf(const rocksdb::Options& options) {
  const auto* table = options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  if (table == nullptr || table->filter_policy == nullptr) return "(no filter)";
  return table->filter_policy->GetId();
}

rocksdb::Status FromDefaultString(const std::string& policy, rocksdb::Options* options) {
  rocksdb::ConfigOptions defaults;  // As GetOptionsFromString's users leave them.
  return rocksdb::GetOptionsFromString(
      defaults, rocksdb::Options(),
      "create_if_missing=true;block_based_table_factory={filter_policy=" + policy + "}", options);
}

// Writes a DB with a good policy, then puts `policy` in its OPTIONS file in
// place of it, as a user editing the file would; loads it back with
// RocksDB's defaults.
rocksdb::Status FromEditedOptionsFile(const std::string& path, const std::string& policy,
                                      rocksdb::Options* options) {
  rocksdb::Options good;
  rocksdb::Status s = FromDefaultString("sstfilter.bloom:10", &good);
  if (s.ok()) s = OpenWith(s, good, path);
  std::vector<std::string> children;
  if (s.ok()) s = rocksdb::Env::Default()->GetChildren(path, &children);
  if (!s.ok()) return s;
  for (const std::string& child : children) {
    if (child.rfind("OPTIONS-", 0) != 0) continue;
    const std::string file = path + "/" + child;
    std::stringstream text;
    text << std::ifstream(file).rdbuf();
    std::string contents = text.str();
    // The whole line: RocksDB writes {id=sstfilter.bloom:10;format=...;...}.
    const size_t at = contents.find("filter_policy=");
    if (at == std::string::npos) return rocksdb::Status::Corruption("no filter_policy in " + file);
    contents.replace(at, contents.find('\n', at) - at, "filter_policy=" + policy);
    std::ofstream(file, std::ios::trunc) << contents;
  }
  rocksdb::ConfigOptions defaults;
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  s = rocksdb::LoadLatestOptions(defaults, path, &db_options, &families);
  if (!s.ok()) return s;
  *options = rocksdb::Options(db_options, families.at(0).options);
  return s;
}

class BadPolicyOpenTest : public ::testing::TestWithParam<BadPolicy> {
 protected:
  void SetUp() override { EnsureRocksDbFilterPoliciesRegistered(); }

  void ExpectRefused(const rocksdb::Status& first_error) {
    ASSERT_FALSE(first_error.ok()) << GetParam().text << ": the DB opened";
    EXPECT_NE(first_error.ToString().find(GetParam().must_mention), std::string::npos)
        << first_error.ToString();
  }
};

TEST_P(BadPolicyOpenTest, DefaultOptionStringStopsOpen) {
  testing::TempDir dir;
  rocksdb::Options options;
  rocksdb::Status parsed = FromDefaultString(GetParam().text, &options);
  ExpectRefused(OpenWith(parsed, options, dir.path() + "/db"));
}

TEST_P(BadPolicyOpenTest, EditedOptionsFileStopsOpen) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/db";
  rocksdb::Options options;
  rocksdb::Status loaded = FromEditedOptionsFile(path, GetParam().text, &options);
  ExpectRefused(OpenWith(loaded, options, path));
}

INSTANTIATE_TEST_SUITE_P(
    Policies, BadPolicyOpenTest,
    ::testing::Values(
        BadPolicy{"zero_bits", "sstfilter.bloom:0", "bits_per_key=0"},
        BadPolicy{"nan_bits", "sstfilter.bloom:nan", "nan"},
        BadPolicy{"bits_over_100", "sstfilter.bloom:101", "101"},
        BadPolicy{"unknown_format", "sstfilter.bloom:10:bogus", "bogus"},
        BadPolicy{"empty_after_colon", "sstfilter.bloom:", "sstfilter.bloom:"},
        BadPolicy{"map_zero_bits", "{id=sstfilter.bloom;bits_per_key=0}", "bits_per_key=0"},
        BadPolicy{"map_unknown_format", "{id=sstfilter.bloom;format=bogus}", "bogus"},
        BadPolicy{"map_unknown_field", "{id=sstfilter.bloom;bpk=10}", "bpk"},
        BadPolicy{"negative_level", "sstfilter.bloom:10:cache_local:compact_from_level:-1",
                  "compact_from_level=-1"},
        BadPolicy{"empty_level", "sstfilter.bloom:10:compact_from_level:",
                  "compact_from_level=''"},
        BadPolicy{"level_too_large", "sstfilter.bloom:10:compact_from_level:1000",
                  "compact_from_level=1000"},
        BadPolicy{"level_twice",
                  "sstfilter.bloom:10:compact_from_level:2:compact_from_level:2",
                  "compact_from_level is given twice"},
        BadPolicy{"level_with_equals", "sstfilter.bloom:10:compact_from_level=2",
                  "compact_from_level:2"},
        BadPolicy{"level_with_compact_format", "sstfilter.bloom:10:compact:compact_from_level:1",
                  "compact_from_level=1 with format=compact"},
        BadPolicy{"map_non_integer_level", "{id=sstfilter.bloom;compact_from_level=x}",
                  "compact_from_level=x"},
        BadPolicy{"map_level_with_compact_format",
                  "{id=sstfilter.bloom;format=compact;compact_from_level=2}",
                  "compact_from_level=2 with format=compact"},
        BadPolicy{"zero_cache_share",
                  "sstfilter.bloom:10:optimize_levels:cache_aware:cache_share:0", "cache_share=0"},
        BadPolicy{"map_zero_cache_share",
                  "{id=sstfilter.bloom;optimize_levels=true;cache_aware=true;cache_share=0}",
                  "cache_share=0"},
        // A map beside an id must not say otherwise than the id states
        // (RocksDB would take the map's silently).
        BadPolicy{"map_conflicting_format", "{id=sstfilter.bloom:10:banded;format=leveldb}",
                  "format=leveldb conflicts with id=sstfilter.bloom:10:banded, which states format"},
        BadPolicy{"map_conflicting_bits", "{id=sstfilter.bloom:10;bits_per_key=20}",
                  "bits_per_key=20 conflicts with id=sstfilter.bloom:10, which states bits_per_key"},
        BadPolicy{"map_conflicting_flag",
                  "{id=sstfilter.bloom:10:optimize_levels:cache_aware;cache_aware=false}",
                  "cache_aware=false conflicts with id=sstfilter.bloom:10:optimize_levels:cache_aware"}),
    [](const ::testing::TestParamInfo<BadPolicy>& info) { return info.param.name; });

// The control: good strings through the same two paths open a DB with
// exactly the policy they name.
TEST(GoodPolicyOpenTest, SamePathsGiveThePolicyAsked) {
  EnsureRocksDbFilterPoliciesRegistered();
  const std::pair<std::string, std::string> kPolicies[] = {
      // {string given, id of the policy in force}
      {"sstfilter.bloom:12:cache_local", "sstfilter.bloom:12:cache_local"},
      {"{id=sstfilter.bloom;bits_per_key=7.5;format=leveldb}", "sstfilter.bloom:7.5"},
      {"sstfilter.bloom:10:cache_local:compact_from_level:2",
       "sstfilter.bloom:10:cache_local:compact_from_level:2"},
      {"{id=sstfilter.bloom;format=cache_local;compact_from_level=1}",
       "sstfilter.bloom:10:cache_local:compact_from_level:1"},
      // A map repeating what its id states, as a saved OPTIONS file does.
      {"{id=sstfilter.bloom:10:banded;bits_per_key=10;format=banded}", "sstfilter.bloom:10:banded"},
  };
  for (const auto& [policy, expected_id] : kPolicies) {
    testing::TempDir dir;
    rocksdb::Options options;
    ASSERT_TRUE(OpenWith(FromDefaultString(policy, &options), options, dir.path() + "/a").ok());
    EXPECT_EQ(PolicyIdOf(options), expected_id) << policy;
    ASSERT_TRUE(FromEditedOptionsFile(dir.path() + "/b", policy, &options).ok()) << policy;
    EXPECT_EQ(PolicyIdOf(options), expected_id) << policy;
    EXPECT_TRUE(OpenWith(rocksdb::Status::OK(), options, dir.path() + "/b").ok()) << policy;
  }
}

// The OPTIONS file RocksDB writes for a DB with compact_from_level loads
// back (LoadLatestOptions, RocksDB's defaults) to the same policy.
TEST(GoodPolicyOpenTest, OptionsFileKeepsCompactFromLevel) {
  EnsureRocksDbFilterPoliciesRegistered();
  testing::TempDir dir;
  const std::string path = dir.path() + "/db";
  rocksdb::Options options;
  ASSERT_TRUE(OpenWith(FromDefaultString("sstfilter.bloom:9:cache_local:compact_from_level:3",
                                         &options),
                       options, path)
                  .ok());
  rocksdb::ConfigOptions defaults;
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  ASSERT_TRUE(rocksdb::LoadLatestOptions(defaults, path, &db_options, &families).ok());
  const rocksdb::Options reloaded(db_options, families.at(0).options);
  EXPECT_EQ(PolicyIdOf(reloaded), "sstfilter.bloom:9:cache_local:compact_from_level:3");
  EXPECT_TRUE(OpenWith(rocksdb::Status::OK(), reloaded, path).ok());
}

}  // namespace
}  // namespace sstfilter

namespace sstfilter {
namespace {

// What sstfilter cannot catch: an id that does not name it (or a missing
// plugin). This pins the RocksDB behaviour that
// docs/rocksdb.md#strings-that-do-not-resolve describes: its default
// ConfigOptions drop the unresolvable policy silently; only
// ignore_unsupported_options=false together with input_strings_escaped=false
// make it an error.
TEST(UnresolvablePolicyTest, OnlyStrictParsingReportsIt) {
  EnsureRocksDbFilterPoliciesRegistered();
  for (int strict_settings = 0; strict_settings < 4; ++strict_settings) {
    rocksdb::ConfigOptions config;
    config.ignore_unsupported_options = (strict_settings & 1) == 0;
    config.input_strings_escaped = (strict_settings & 2) == 0;
    rocksdb::BlockBasedTableOptions table;
    rocksdb::Status s = rocksdb::GetBlockBasedTableOptionsFromString(
        config, {}, "filter_policy=sstfiltr.bloom:10", &table);
    if (strict_settings == 3) {
      EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
      EXPECT_NE(s.ToString().find("sstfiltr.bloom:10"), std::string::npos) << s.ToString();
    } else {
      EXPECT_TRUE(s.ok()) << strict_settings << ": " << s.ToString();
      EXPECT_EQ(table.filter_policy, nullptr) << strict_settings;
    }
  }
}

// Malformed option maps naming sstfilter.bloom that RocksDB may drop before
// sstfilter's parser sees them: put in a DB's OPTIONS file in
// place of a good policy and loaded with RocksDB's defaults, either the load
// or DB::Open refuses them, or the DB opens with another policy (none), and
// then the census (which a per-level policy needs beside it) says so at
// ERROR in the LOG before the first table is written: never a DB that loses
// sstfilter's filters without a word. docs/rocksdb.md#filter-policy-strings-
// rocksdb-drops lists which RocksDB drops.
class DroppedPolicyTest : public ::testing::TestWithParam<BadPolicy> {
 protected:
  void SetUp() override { EnsureRocksDbFilterPoliciesRegistered(); }
};

TEST_P(DroppedPolicyTest, RefusedOrTheCensusSaysSo) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/db";
  rocksdb::Options options;
  rocksdb::Status s = FromEditedOptionsFile(path, GetParam().text, &options);
  std::unique_ptr<rocksdb::DB> db;
  if (s.ok()) {
    const auto log = std::make_shared<testing::WarningLog>();
    options.info_log = log;
    options.listeners = {NewLevelCensusListener()};
    s = OpenDb(options, path, &db);
    if (s.ok()) {
      ASSERT_NE(PolicyIdOf(options).rfind("sstfilter.bloom", 0), 0u)
          << GetParam().text << " gave " << PolicyIdOf(options) << ": not a dropped string";
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "k", "v").ok());
      ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
      const std::vector<std::string> lines = log->Lines();
      EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
        return line.find("sstfilter census: column family 'default' has filter policy none") !=
               std::string::npos;
      })) << GetParam().text << ": opened with no filter, and the census did not say so";
      std::printf("%s: RocksDB dropped it; the census said so\n", GetParam().text.c_str());
      return;
    }
  }
  EXPECT_FALSE(s.ok());
  std::printf("%s: refused: %s\n", GetParam().text.c_str(), s.ToString().c_str());
}

INSTANTIATE_TEST_SUITE_P(
    MalformedMaps, DroppedPolicyTest,
    ::testing::Values(BadPolicy{"no_closing_brace", "{id=sstfilter.bloom;bits_per_key=10", ""},
                      BadPolicy{"id_no_closing_brace", "{id=sstfilter.bloom:0", ""},
                      BadPolicy{"empty_field", "{id=sstfilter.bloom;;bits_per_key=10}", ""},
                      BadPolicy{"field_without_value", "{id=sstfilter.bloom;bits_per_key}", ""},
                      BadPolicy{"value_without_field", "{id=sstfilter.bloom;=10}", ""},
                      BadPolicy{"two_opening_braces", "{{id=sstfilter.bloom}", ""}),
    [](const ::testing::TestParamInfo<BadPolicy>& info) { return info.param.name; });

// The census's line counts the live tables that carry sstfilter's filters
// (their filter_policy_name property), which a compaction under the other
// policy would rewrite without them.
TEST(DroppedPolicyCountTest, TheCensusCountsTheTablesThatWouldLoseTheirFilters) {
  EnsureRocksDbFilterPoliciesRegistered();
  testing::TempDir dir;
  const std::string path = dir.path() + "/db";
  rocksdb::Options options;
  ASSERT_TRUE(FromDefaultString("sstfilter.bloom:10", &options).ok());
  options.disable_auto_compactions = true;
  {
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(OpenDb(options, path, &db).ok());
    for (const char* key : {"a", "b", "c"}) {
      ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, "v").ok());
      ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
    }
  }
  rocksdb::BlockBasedTableOptions no_filter;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(no_filter));
  const auto log = std::make_shared<testing::WarningLog>();
  options.info_log = log;
  options.listeners = {NewLevelCensusListener()};
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(OpenDb(options, path, &db).ok());
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "d", "v").ok());
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  const std::vector<std::string> lines = log->Lines();
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
    return line.find("3 of its 3 live tables carry sstfilter filters") != std::string::npos;
  })) << "no census line counting the tables";
}

}  // namespace
}  // namespace sstfilter
