// An FP target means at most that FP: by each encoding's own model at the
// filter's size (filter/fp_target.h), and measured.
#include "filter/fp_target.h"

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "filter/accuracy.h"
#include "filter/bloom_math.h"
#include "filter/encodings.h"
#include "filter/filter_policy.h"
#include "gtest/gtest.h"
#include "tests/filter_test_util.h"

namespace sstfilter {
namespace {

using testing::KeyShape;

class FpTargetTest : public ::testing::TestWithParam<EncodingId> {
 protected:
  const EncodingInfo& Info() const { return EncodingInfoOf(GetParam()); }
  double ModelFp(size_t n, double bits_per_key) const {
    return Info().expected_fp_rate(n, bits_per_key);
  }
};

// The least bits/key that meet the target: one step less misses it (the
// models fall as bits grow, from filters of ~1000 keys on; below, minimum
// sizes make them flat or bumpy, and the answer only meets the target).
TEST_P(FpTargetTest, FewestBitsMeetingTheModel) {
  for (size_t n : {10, 100}) {
    for (double p : {0.2, 0.01, 1e-3}) {
      EXPECT_LE(ModelFp(n, BitsPerKeyForFp(Info(), n, p)), p) << "n=" << n << " p=" << p;
    }
  }
  for (size_t n : {1000, 10000, 100000, 1000000, 10000000}) {
    for (double p : {0.2, 0.05, 0.01, 1e-3, 1e-4}) {
      if (ModelFp(n, kMaxBitsPerKey) > p) continue;  // Unreachable: next test.
      const double bits = BitsPerKeyForFp(Info(), n, p);
      EXPECT_LE(ModelFp(n, bits), p) << "n=" << n << " p=" << p;
      EXPECT_GT(ModelFp(n, bits - kFpTargetBitsPrecision), p) << "n=" << n << " p=" << p;
    }
  }
}

// A LevelDB-format filter of 1e8 keys cannot go below its 32-bit hash's
// collision rate (~2.3%): a 1% target gets within 1% of its least FP.
TEST_P(FpTargetTest, UnreachableTargetGetsTheLeastFp) {
  const size_t n = 100000000;
  const double least = ModelFp(n, kMaxBitsPerKey);
  const double bits = BitsPerKeyForFp(Info(), n, 0.01);
  if (least <= 0.01) {
    EXPECT_LE(ModelFp(n, bits), 0.01);
  } else {
    EXPECT_EQ(GetParam(), EncodingId::kLevelDb) << "only the 32-bit hash has a floor";
    EXPECT_GE(least, Hash32CollisionRate(n));
    EXPECT_LE(ModelFp(n, bits), 1.01 * least);
    EXPECT_LT(bits, 30) << "past ~25 bits/key the Bloom part is far below the floor";
  }
}

// FpTarget remembers answers per size class; every n still gets a setting
// that meets the target, and not much more than the fewest.
TEST_P(FpTargetTest, RememberedSettingsMeetTheTargetAtEveryN) {
  const FpTarget target(0.01);
  std::mt19937_64 rng(GetParam() == EncodingId::kLevelDb ? 1 : 2);
  std::uniform_real_distribution<double> log10_n(0, 7.5);
  for (int i = 0; i < 400; ++i) {
    const auto n = static_cast<size_t>(std::pow(10.0, log10_n(rng)));
    const double bits = target.BitsPerKey(GetParam(), n);
    EXPECT_LE(ModelFp(n, bits), 0.01) << "n=" << n;
    if (n >= kFpTargetExactKeys) {
      EXPECT_LE(bits, BitsPerKeyForFp(Info(), n, 0.01) + kFpTargetSlackBits) << "n=" << n;
    }
  }
}

// Filters built by a policy asked for fp_rate=0.01, queried with absent
// keys: the measured mean is at most 1% (within kFpSigmas standard errors).
// At the standard Bloom formula's 9.585 bits/key the cache_local and
// compact encodings measure ~1.14%, far outside. The LevelDB format's model
// is the standard Bloom filter's, which its own FP exceeds: its 32-bit hash
// and probes derived from it measure 0.6-1.5% at 10 bits/key depending on
// the keys (docs/results.md), ~1.17% on these; its bound is 1.3x the target.
TEST_P(FpTargetTest, MeasuredFpIsAtMostTheTarget) {
  FilterOptions options;
  options.fp_rate = 0.01;
  options.encoding = GetParam();
  auto policy = NewFilterPolicy(options);
  ASSERT_TRUE(policy.ok()) << policy.status();
  constexpr size_t kFilters = 16, kKeys = 20000, kQueries = 50000;
  std::vector<double> rates;
  for (size_t f = 0; f < kFilters; ++f) {
    const std::vector<std::string> keys =
        testing::ShapedKeys(KeyShape::kRandom16, f * (kKeys + kQueries), kKeys);
    std::string filter;
    (*policy)->CreateFilter(testing::Views(keys), &filter);
    size_t positives = 0;
    for (size_t q = 0; q < kQueries; ++q) {
      positives += (*policy)->KeyMayMatch(
          testing::ShapedKey(KeyShape::kRandom16, f * (kKeys + kQueries) + kKeys + q), filter);
    }
    rates.push_back(static_cast<double>(positives) / kQueries);
  }
  const testing::FpMean measured = testing::MeanOf(rates);
  const double bound = GetParam() == EncodingId::kLevelDb ? 0.013 : 0.01;
  EXPECT_LE(measured.mean, bound + testing::kFpSigmas * std::sqrt(measured.variance_of_mean))
      << EncodingName(GetParam());
  // And it is a 1% filter, not a much better one (the bits are the fewest).
  EXPECT_GT(measured.mean, 0.007) << EncodingName(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Encodings, FpTargetTest, ::testing::ValuesIn(AllEncodingIds()),
                         [](const auto& info) { return std::string(EncodingName(info.param)); });

TEST(AccuracyTest, BitsPerKeyWithoutATargetIsTheSetting) {
  FilterOptions options;
  options.bits_per_key = 7.5;
  const Accuracy accuracy(options);
  EXPECT_FALSE(accuracy.PerFilter());
  for (EncodingId e : AllEncodingIds()) {
    EXPECT_EQ(accuracy.BitsPerKey(e, 123), 7.5);
    EXPECT_EQ(accuracy.NominalBitsPerKey(e), 7.5);
  }
}

}  // namespace
}  // namespace sstfilter
