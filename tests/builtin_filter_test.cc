// The SST inspector's model of RocksDB's built-in filters
// (tools/builtin_filter.h): filters built by RocksDB's own builders, their
// FP measured with RocksDB's own reader, compared with what the model
// predicts from the bytes alone.
#include "tools/builtin_filter.h"

#include <memory>
#include <string>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "table/rocksdb/rocksdb_internal.h"
#include "tests/db_test_util.h"

namespace sstfilter {
namespace {

struct Built {
  std::string bytes;
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
};

// n keys "key<i>" through RocksDB's builder of `class_name` (its test hook
// that pins one implementation) at bits_per_key.
Built Build(const std::string& class_name, double bits_per_key, size_t n) {
  Built b;
  b.policy = rocksdb::BloomLikeFilterPolicy::Create(class_name, bits_per_key);
  rocksdb::BlockBasedTableOptions table_options;
  table_options.optimize_filters_for_memory = false;
  rocksdb::FilterBuildingContext context(table_options);
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder(b.policy->GetBuilderWithContext(context));
  for (size_t i = 0; i < n; ++i) builder->AddKey(absl::StrFormat("key%d", i));
  std::unique_ptr<const char[]> buf;
  b.bytes = builder->Finish(&buf).ToString();
  return b;
}

double MeasuredFp(const Built& b, size_t probes) {
  std::unique_ptr<rocksdb::FilterBitsReader> reader(b.policy->GetFilterBitsReader(b.bytes));
  size_t positives = 0;
  for (size_t i = 0; i < probes; ++i) {
    positives += reader->MayMatch(absl::StrFormat("absent%d", i)) ? 1 : 0;
  }
  return static_cast<double>(positives) / static_cast<double>(probes);
}

struct Case {
  const char* class_name;
  const char* kind;  // Start of the description's name.
  double bits_per_key;
};

class BuiltinFilterTest : public ::testing::TestWithParam<Case> {};

TEST_P(BuiltinFilterTest, ModelMatchesRocksDbsReader) {
  constexpr size_t kKeys = 50000, kProbes = 400000;
  const Built b = Build(GetParam().class_name, GetParam().bits_per_key, kKeys);
  const FilterDescription d = DescribeRocksDbBuiltinFilter(b.bytes);
  ASSERT_EQ(d.state, FilterState::kProbe) << d.name;
  EXPECT_EQ(d.name.rfind(GetParam().kind, 0), 0u) << d.name;
  const double model = d.ExpectedFpRate(kKeys);
  const double measured = MeasuredFp(b, kProbes);
  // The model within 10% of the measurement, beyond its sampling error.
  EXPECT_LE(measured * kProbes, testing::BinomialUpperBound(kProbes, model * 1.1))
      << d.name << ": model " << model << ", measured " << measured;
  EXPECT_GE(measured * kProbes, testing::BinomialLowerBound(kProbes, model / 1.1))
      << d.name << ": model " << model << ", measured " << measured;
}

INSTANTIATE_TEST_SUITE_P(
    EachBuiltin, BuiltinFilterTest,
    ::testing::Values(
        Case{rocksdb::test::FastLocalBloomFilterPolicy::kClassName(), "RocksDB FastLocalBloom", 10},
        Case{rocksdb::test::FastLocalBloomFilterPolicy::kClassName(), "RocksDB FastLocalBloom", 16},
        Case{rocksdb::test::LegacyBloomFilterPolicy::kClassName(), "RocksDB legacy Bloom", 10},
        Case{rocksdb::test::Standard128RibbonFilterPolicy::kClassName(), "RocksDB Ribbon", 10},
        Case{rocksdb::test::Standard128RibbonFilterPolicy::kClassName(), "RocksDB Ribbon", 15.5}),
    [](const auto& info) {
      std::string name = absl::StrFormat("%s_%g", info.param.kind, info.param.bits_per_key);
      for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      return name;
    });

TEST(BuiltinFilterBytesTest, EmptyMatchesNothing) {
  EXPECT_EQ(DescribeRocksDbBuiltinFilter("").state, FilterState::kMatchNothing);
  EXPECT_EQ(DescribeRocksDbBuiltinFilter(std::string(5, '\0')).state, FilterState::kMatchNothing);
}

TEST(BuiltinFilterBytesTest, DamagedMetadataMatchesEverything) {
  Built b = Build(rocksdb::test::FastLocalBloomFilterPolicy::kClassName(), 10, 1000);
  std::string damaged = b.bytes;
  damaged[damaged.size() - 3] = static_cast<char>(0);  // k = 0.
  EXPECT_EQ(DescribeRocksDbBuiltinFilter(damaged).state, FilterState::kMatchEverything);
  damaged = b.bytes;
  damaged[damaged.size() - 5] = static_cast<char>(-7);  // No such marker.
  EXPECT_EQ(DescribeRocksDbBuiltinFilter(damaged).state, FilterState::kMatchEverything);
  damaged = b.bytes.substr(0, b.bytes.size() - 5 - 1) + b.bytes.substr(b.bytes.size() - 5);
  EXPECT_EQ(DescribeRocksDbBuiltinFilter(damaged).state, FilterState::kMatchEverything)
      << "a length no block count divides";
  Built ribbon = Build(rocksdb::test::Standard128RibbonFilterPolicy::kClassName(), 10, 1000);
  damaged = ribbon.bytes;
  damaged[damaged.size() - 3] = damaged[damaged.size() - 2] = damaged[damaged.size() - 1] = 0;
  EXPECT_EQ(DescribeRocksDbBuiltinFilter(damaged).state, FilterState::kMatchEverything);
}

}  // namespace
}  // namespace sstfilter
