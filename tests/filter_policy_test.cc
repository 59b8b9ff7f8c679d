#include "filter/filter_policy.h"

#include <string>
#include <string_view>
#include <vector>

#include "filter/bloom_math.h"
#include "filter/encodings.h"
#include "filter/leveldb/bloom.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

std::unique_ptr<const FilterPolicy> MakePolicy(const FilterOptions& options) {
  auto policy = NewFilterPolicy(options);
  EXPECT_TRUE(policy.ok()) << policy.status();
  return policy.ok() ? std::move(*policy) : nullptr;
}

TEST(FilterPolicyTest, NameAndRoundTrip) {
  const auto policy = MakePolicy(FilterOptions());
  ASSERT_NE(policy, nullptr);
  EXPECT_STREQ(policy->Name(), "sstfilter.bloom");
  const std::vector<std::string_view> keys = {"apple", "banana", "", "cherry"};
  std::string dst = "earlier filter";
  policy->CreateFilter(keys, &dst);
  ASSERT_EQ(dst.substr(0, 14), "earlier filter");
  const std::string_view filter = std::string_view(dst).substr(14);
  EXPECT_EQ(filter.size(), LevelDbFilterBits(keys.size(), 10) / 8 + 1);
  for (std::string_view key : keys) EXPECT_TRUE(policy->KeyMayMatch(key, filter)) << key;
  EXPECT_FALSE(policy->KeyMayMatch("durian", filter));
  EXPECT_FALSE(policy->KeyMayMatch("apple", ""));  // Empty filter.
  EXPECT_TRUE(policy->KeyMayMatch("apple", std::string(8, '\0') + '\x80'));  // Reserved k.
}

TEST(FilterPolicyTest, BuildsTheLevelDbEncoding) {
  FilterOptions options;
  options.bits_per_key = 7.5;
  const auto policy = MakePolicy(options);
  ASSERT_NE(policy, nullptr);
  std::vector<std::string> storage;
  for (int i = 0; i < 500; ++i) storage.push_back("key" + std::to_string(i));
  const std::vector<std::string_view> keys(storage.begin(), storage.end());
  std::string ours, direct;
  policy->CreateFilter(keys, &ours);
  AppendLevelDbBloomFilter(keys, 7.5, &direct);
  EXPECT_EQ(ours, direct);
}

// The format option is honoured on both sides: filters are written in it,
// and KeyMayMatch reads every encoding (a filter of n keys answers absent
// keys at about its FP rate, not "may match" for all).
TEST(FilterPolicyTest, WritesAndReadsEveryFormat) {
  std::vector<std::string> storage;
  for (int i = 0; i < 2000; ++i) storage.push_back("key" + std::to_string(i));
  const std::vector<std::string_view> keys(storage.begin(), storage.end());
  ForEachEncoding([&](auto encoding) {
    using E = decltype(encoding);
    FilterOptions options;
    options.encoding = IdOf<E>();
    const auto policy = MakePolicy(options);
    ASSERT_NE(policy, nullptr);
    std::string filter;
    policy->CreateFilter(keys, &filter);
    std::string direct;
    typename E::Builder builder(options.bits_per_key);
    for (std::string_view key : keys) builder.AddKey(key);
    builder.Finish(&direct);
    EXPECT_EQ(filter, direct) << E::kInfo.name;
    for (std::string_view key : keys) ASSERT_TRUE(policy->KeyMayMatch(key, filter)) << key;
    int positives = 0;
    for (int i = 0; i < 10000; ++i) {
      positives += policy->KeyMayMatch("absent" + std::to_string(i), filter);
    }
    // About 1% at 10 bits/key; 5% is far outside chance.
    EXPECT_LT(positives, 500) << E::kInfo.name;
  });
}

TEST(FilterPolicyTest, FpRateSizesTheFilter) {
  FilterOptions options;
  options.fp_rate = 0.01;
  const auto policy = MakePolicy(options);
  ASSERT_NE(policy, nullptr);
  std::vector<std::string> storage;
  for (int i = 0; i < 1000; ++i) storage.push_back("k" + std::to_string(i));
  const std::vector<std::string_view> keys(storage.begin(), storage.end());
  std::string filter;
  policy->CreateFilter(keys, &filter);
  // 9585.06 bits -> 9592 bits = 1199 bytes, and k = floor(9.585 * 0.69) = 6.
  EXPECT_EQ(filter.size(), 1200u);
  EXPECT_EQ(filter.back(), 6);
}

TEST(FilterPolicyTest, BadOptionsNameTheValue) {
  FilterOptions bits;
  bits.bits_per_key = -3;
  auto policy = NewFilterPolicy(bits);
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(policy.status().message().find("bits_per_key=-3"), std::string_view::npos)
      << policy.status();

  FilterOptions fp;
  fp.fp_rate = 2;
  policy = NewFilterPolicy(fp);
  ASSERT_FALSE(policy.ok());
  EXPECT_NE(policy.status().message().find("fp_rate=2"), std::string_view::npos)
      << policy.status();
}

}  // namespace
}  // namespace sstfilter
