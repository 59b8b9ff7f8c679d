// Our policy living next to RocksDB's own: DBs written with the built-in
// filter open with ours and the reverse, several column families with
// different policies, OPTIONS files that reload to the same policy, and bad
// option strings that fail cleanly without touching data.
#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include "db_test_util.h"
#include "filter/encoding_id.h"
#include "filter/filter_options.h"
#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/utilities/options_util.h"
#include "table/census/open_db.h"
#include "table/rocksdb/registration.h"

namespace sstfilter {
namespace {

using testing::AbsentKeys;
using testing::RandomKeys;
using testing::TempDir;
using testing::ValueFor;

constexpr size_t kNumKeys = 5000;

rocksdb::Options OptionsWithPolicy(const std::string& filter_policy) {
  EnsureRocksDbFilterPoliciesRegistered();
  rocksdb::ConfigOptions config;
  config.ignore_unknown_options = false;
  config.input_strings_escaped = false;  // Else RocksDB drops a bad policy silently.
  rocksdb::Options base, options;
  base.create_if_missing = true;
  rocksdb::Status s = rocksdb::GetOptionsFromString(
      config, base,
      "block_based_table_factory={filter_policy=" + filter_policy + "}", &options);
  EXPECT_TRUE(s.ok()) << s.ToString();
  options.statistics = rocksdb::CreateDBStatistics();
  return options;
}

std::unique_ptr<rocksdb::DB> OpenDb(const rocksdb::Options& options, const std::string& path) {
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::Status s = sstfilter::OpenDb(options, path, &db);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return db;
}

void WriteAndFlush(rocksdb::DB* db, const std::vector<std::string>& keys,
                   rocksdb::ColumnFamilyHandle* cf = nullptr) {
  if (cf == nullptr) cf = db->DefaultColumnFamily();
  for (const std::string& key : keys) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), cf, key, ValueFor(key)).ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions(), cf).ok());
}

void ExpectCorrectAnswers(rocksdb::DB* db, const std::vector<std::string>& keys,
                          rocksdb::ColumnFamilyHandle* cf = nullptr) {
  if (cf == nullptr) cf = db->DefaultColumnFamily();
  std::string value;
  for (const std::string& key : keys) {
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), cf, key, &value).ok());
    ASSERT_EQ(value, ValueFor(key));
  }
  for (const std::string& key : AbsentKeys(keys.size(), 99)) {
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), cf, key, &value).IsNotFound());
  }
}

struct Crossing {
  std::string writer;
  std::string reader;
};

class CrossPolicyTest : public ::testing::TestWithParam<Crossing> {};

TEST_P(CrossPolicyTest, OpensAndAnswersCorrectly) {
  TempDir dir;
  const std::vector<std::string> keys = RandomKeys(kNumKeys, 5);
  {
    auto db = OpenDb(OptionsWithPolicy(GetParam().writer), dir.path());
    WriteAndFlush(db.get(), keys);
  }
  rocksdb::Options options = OptionsWithPolicy(GetParam().reader);
  auto db = OpenDb(options, dir.path());
  ExpectCorrectAnswers(db.get(), keys);
  // The file's filter has another compatibility name, so it is not used:
  // no filter can have rejected anything.
  EXPECT_EQ(testing::Ticker(options, rocksdb::BLOOM_FILTER_USEFUL), 0u);
  // New files written now do carry the reader's filter.
  WriteAndFlush(db.get(), RandomKeys(kNumKeys, 6));
  ExpectCorrectAnswers(db.get(), keys);
  EXPECT_GT(testing::Ticker(options, rocksdb::BLOOM_FILTER_USEFUL), 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Policies, CrossPolicyTest,
    ::testing::Values(Crossing{"bloomfilter:10", "sstfilter.bloom:10"},
                      Crossing{"sstfilter.bloom:10", "bloomfilter:10"},
                      Crossing{"ribbonfilter:10", "sstfilter.bloom:10"},
                      Crossing{"sstfilter.bloom:10", "ribbonfilter:10"}),
    [](const ::testing::TestParamInfo<Crossing>& info) {
      // "bloomfilter:10" -> "bloomfilter_10": test names are [A-Za-z0-9_].
      std::string name = info.param.writer + "_read_with_" + info.param.reader;
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

TEST(ColumnFamiliesTest, EachFamilyUsesItsOwnPolicy) {
  TempDir dir;
  const std::vector<std::string> policies = {"sstfilter.bloom:10", "sstfilter.bloom:16",
                                             "bloomfilter:10"};
  rocksdb::Options db_options = OptionsWithPolicy("sstfilter.bloom:10");
  db_options.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  families.emplace_back(rocksdb::kDefaultColumnFamilyName, db_options);
  for (size_t i = 0; i < policies.size(); ++i) {
    families.emplace_back(absl::StrFormat("cf%d", i), OptionsWithPolicy(policies[i]));
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(sstfilter::OpenDb(db_options, dir.path(), families, &handles, &db).ok());
  for (size_t i = 0; i < handles.size(); ++i) {
    const std::vector<std::string> keys = RandomKeys(kNumKeys, 100 + i);
    WriteAndFlush(db.get(), keys, handles[i]);
    ExpectCorrectAnswers(db.get(), keys, handles[i]);
  }
  // Each family's SST names its own policy in its table properties.
  for (size_t i = 1; i < handles.size(); ++i) {
    rocksdb::TablePropertiesCollection props;
    ASSERT_TRUE(db->GetPropertiesOfAllTables(handles[i], &props).ok());
    ASSERT_EQ(props.size(), 1u);
    const std::string& name = props.begin()->second->filter_policy_name;
    EXPECT_EQ(name, i <= 2 ? "sstfilter.bloom" : "bloomfilter") << policies[i - 1];
  }
  for (auto* handle : handles) ASSERT_TRUE(db->DestroyColumnFamilyHandle(handle).ok());
}

// Each encoding of the list, at whole and fractional bits/key.
std::vector<std::string> PoliciesOfEveryEncoding() {
  std::vector<std::string> ids;
  for (EncodingId encoding : AllEncodingIds()) {
    FilterOptions options;
    options.encoding = encoding;
    options.bits_per_key = 10 + 2.5 * static_cast<double>(ids.size());
    ids.push_back(FormatPolicyId(options));
  }
  return ids;
}

TEST(OptionsFileTest, SavedOptionsReloadToSamePolicy) {
  for (const std::string& policy : PoliciesOfEveryEncoding()) {
    SCOPED_TRACE(policy);
    TempDir dir;
    const std::vector<std::string> keys = RandomKeys(kNumKeys, 11);
    {
      auto db = OpenDb(OptionsWithPolicy(policy), dir.path());
      WriteAndFlush(db.get(), keys);
    }
    rocksdb::ConfigOptions config;
    config.ignore_unknown_options = false;
    rocksdb::DBOptions db_options;
    std::vector<rocksdb::ColumnFamilyDescriptor> families;
    rocksdb::Status s = rocksdb::LoadLatestOptions(config, dir.path(), &db_options, &families);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_EQ(families.size(), 1u);
    auto* table = families[0].options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
    ASSERT_NE(table, nullptr);
    ASSERT_NE(table->filter_policy, nullptr) << "the OPTIONS loader dropped the policy";
    EXPECT_EQ(table->filter_policy->GetId(), policy);

    rocksdb::Options options(db_options, families[0].options);
    options.statistics = rocksdb::CreateDBStatistics();
    auto db = OpenDb(options, dir.path());
    ExpectCorrectAnswers(db.get(), keys);
    EXPECT_GT(testing::Ticker(options, rocksdb::BLOOM_FILTER_USEFUL), 0u);
  }
}

TEST(BadOptionsTest, FailCleanlyAndLeaveDataAlone) {
  TempDir dir;
  const std::vector<std::string> keys = RandomKeys(kNumKeys, 12);
  {
    auto db = OpenDb(OptionsWithPolicy("sstfilter.bloom:10"), dir.path());
    WriteAndFlush(db.get(), keys);
  }
  // Reopening the DB with a bad policy string, parsed strictly or with
  // RocksDB's defaults, fails (at the parse or at DB::Open, whichever comes
  // first) naming the policy, and touches nothing.
  EnsureRocksDbFilterPoliciesRegistered();
  for (bool strict : {true, false}) {
    rocksdb::ConfigOptions config;  // RocksDB's defaults, or strict parsing.
    if (strict) {
      config.ignore_unknown_options = false;
      config.input_strings_escaped = false;
    }
    for (const char* bad : {"sstfilter.bloom:-1", "sstfilter.bloom:abc",
                            "{id=sstfilter.bloom;colour=blue}"}) {
      rocksdb::Options base, options;
      rocksdb::Status s = rocksdb::GetOptionsFromString(
          config, base, std::string("block_based_table_factory={filter_policy=") + bad + "}",
          &options);
      std::unique_ptr<rocksdb::DB> unexpected;
      if (s.ok()) s = sstfilter::OpenDb(options, dir.path(), &unexpected);
      EXPECT_FALSE(s.ok()) << bad << (strict ? " (strict)" : " (defaults)");
      EXPECT_NE(s.ToString().find("sstfilter.bloom"), std::string::npos) << s.ToString();
    }
  }
  auto db = OpenDb(OptionsWithPolicy("sstfilter.bloom:10"), dir.path());
  ExpectCorrectAnswers(db.get(), keys);
}

}  // namespace
}  // namespace sstfilter
