// DescribeFilterEncoding (tools/filter_encoding.h): which encoding a filter
// holds, its parameters, and an expected FP rate agreeing with bloom_math /
// cache_local_math for filters the builders made.
#include "tools/filter_encoding.h"

#include <string>
#include <string_view>
#include <vector>

#include "filter/bloom_math.h"
#include "filter/cache_local_bloom.h"
#include "filter/cache_local_math.h"
#include "filter/leveldb_bloom.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

std::vector<std::string> Keys(size_t n) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < n; ++i) keys.push_back("key" + std::to_string(i));
  return keys;
}

std::vector<std::string_view> Views(const std::vector<std::string>& keys) {
  return {keys.begin(), keys.end()};
}

TEST(FilterEncodingTest, LevelDbFilter) {
  for (size_t n : {10, 1000, 20000}) {
    for (int bits_per_key : {5, 10, 20}) {
      const std::vector<std::string> keys = Keys(n);
      std::string filter;
      AppendLevelDbBloomFilter(Views(keys), bits_per_key, &filter);
      const FilterEncoding e = DescribeFilterEncoding(filter);
      ASSERT_EQ(e.kind, FilterEncoding::Kind::kLevelDb);
      EXPECT_EQ(e.num_probes, LevelDbNumProbes(bits_per_key));
      EXPECT_EQ(e.name, "leveldb k=" + std::to_string(LevelDbNumProbes(bits_per_key)));
      EXPECT_EQ(e.num_bits, static_cast<double>(LevelDbFilterBits(n, bits_per_key)));
      // Same model as LevelDbExpectedFpRate, from the bytes alone.
      EXPECT_DOUBLE_EQ(e.ExpectedFpRate(static_cast<double>(n)),
                       LevelDbExpectedFpRate(n, bits_per_key))
          << n << " keys, " << bits_per_key << " bits/key";
    }
  }
}

TEST(FilterEncodingTest, CacheLocalFilter) {
  for (size_t n : {10, 1000, 20000}) {
    const std::vector<std::string> keys = Keys(n);
    std::string filter;
    AppendCacheLocalBloomFilter(Views(keys), 10.0, &filter);
    const FilterEncoding e = DescribeFilterEncoding(filter);
    ASSERT_EQ(e.kind, FilterEncoding::Kind::kCacheLocal) << e.name;
    EXPECT_EQ(e.num_probes, CacheLocalNumProbes(10.0));
    EXPECT_EQ(e.num_lines, static_cast<double>(CacheLocalNumLines(n, 10.0)));
    EXPECT_EQ(e.name, "cache_local k=" + std::to_string(CacheLocalNumProbes(10.0)));
    EXPECT_DOUBLE_EQ(e.ExpectedFpRate(static_cast<double>(n)),
                     CacheLocalExpectedFpRate(n, 10.0));
  }
  std::string empty;
  AppendCacheLocalBloomFilter({}, 10.0, &empty);
  EXPECT_EQ(DescribeFilterEncoding(empty).kind, FilterEncoding::Kind::kEmpty);
  // A cache-local tag on a bad trailer: the reader fails open, and says so.
  std::string damaged(68, '\0');
  damaged.back() = static_cast<char>(kCacheLocalTag);
  const FilterEncoding e = DescribeFilterEncoding(damaged);
  EXPECT_EQ(e.kind, FilterEncoding::Kind::kMatchEverything);
  EXPECT_EQ(e.ExpectedFpRate(100), 1.0);
}

TEST(FilterEncodingTest, EmptyAndUnknown) {
  EXPECT_EQ(DescribeFilterEncoding("").kind, FilterEncoding::Kind::kEmpty);
  EXPECT_EQ(DescribeFilterEncoding("x").kind, FilterEncoding::Kind::kEmpty);
  EXPECT_EQ(DescribeFilterEncoding("").ExpectedFpRate(5), 0.0);
  const FilterEncoding zero = DescribeFilterEncoding(std::string(9, '\0'));
  EXPECT_EQ(zero.kind, FilterEncoding::Kind::kMatchEverything);
  EXPECT_NE(zero.name.find("k=0"), std::string::npos);
  const FilterEncoding unknown = DescribeFilterEncoding(std::string(8, '\0') + "\x7f");
  EXPECT_EQ(unknown.kind, FilterEncoding::Kind::kMatchEverything);
  EXPECT_NE(unknown.name.find("0x7f"), std::string::npos) << unknown.name;
  EXPECT_EQ(unknown.ExpectedFpRate(5), 1.0);
}

}  // namespace
}  // namespace sstfilter
