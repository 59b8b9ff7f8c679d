#include "filter/bloom_math.h"

#include <cmath>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

TEST(BloomMathTest, LevelDbNumProbesIsFloorOfPoint69TimesBitsClamped) {
  struct Case {
    double bits_per_key;
    int k;
  };
  const Case cases[] = {
      {0.1, 1},  {1, 1},   {1.44, 1},  {1.45, 1}, {2, 1},   {3, 2},
      {5, 3},    {9.5, 6}, {10, 6},    {11, 7},   {16, 11}, {20, 13},
      {29, 20},  {43, 29}, {43.48, 30}, {44, 30}, {100, 30},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(LevelDbNumProbes(c.bits_per_key), c.k) << c.bits_per_key;
  }
}

TEST(BloomMathTest, LevelDbNumProbesStaysInRange) {
  for (double b = 0.01; b <= kMaxBitsPerKey; b += 0.37) {
    const int k = LevelDbNumProbes(b);
    EXPECT_GE(k, 1) << b;
    EXPECT_LE(k, 30) << b;
  }
}

TEST(BloomMathTest, LevelDbFilterBits) {
  // At least 64 bits, then n * bits_per_key rounded up to whole bytes.
  EXPECT_EQ(LevelDbFilterBits(0, 10), 64u);
  EXPECT_EQ(LevelDbFilterBits(1, 10), 64u);
  EXPECT_EQ(LevelDbFilterBits(6, 10), 64u);
  EXPECT_EQ(LevelDbFilterBits(7, 10), 72u);  // 70 -> 72.
  EXPECT_EQ(LevelDbFilterBits(13, 10), 136u);  // 130 -> 136.
  EXPECT_EQ(LevelDbFilterBits(100, 10), 1000u);
  EXPECT_EQ(LevelDbFilterBits(65, 1), 72u);
  EXPECT_EQ(LevelDbFilterBits(3, 9.5), 64u);
  EXPECT_EQ(LevelDbFilterBits(101, 9.5), 960u);  // 959.5 -> 959 -> 960.
  EXPECT_EQ(LevelDbFilterBits(1000000, 30), 30000000u);
  for (size_t n = 0; n < 2000; n += 7) {
    const size_t bits = LevelDbFilterBits(n, 7);
    EXPECT_EQ(bits % 8, 0u);
    EXPECT_GE(bits, 64u);
    EXPECT_GE(bits, 7 * n);
    EXPECT_LT(bits, std::max<size_t>(7 * n, 64) + 8);
  }
}

TEST(BloomMathTest, BitsPerKeyForFpRate) {
  // -ln(p) / ln(2)^2, the sizing of RedisBloom's BF.RESERVE.
  EXPECT_NEAR(BitsPerKeyForFpRate(0.5), 1.442695, 1e-6);
  EXPECT_NEAR(BitsPerKeyForFpRate(0.1), 4.792529, 1e-6);
  EXPECT_NEAR(BitsPerKeyForFpRate(0.01), 9.585058, 1e-6);
  EXPECT_NEAR(BitsPerKeyForFpRate(0.001), 14.377588, 1e-6);
  EXPECT_NEAR(BitsPerKeyForFpRate(1e-20), 95.850584, 1e-6);
  // Every factor of 10 in p costs the same number of bits.
  EXPECT_NEAR(BitsPerKeyForFpRate(1e-4) - BitsPerKeyForFpRate(1e-3),
              BitsPerKeyForFpRate(1e-3) - BitsPerKeyForFpRate(1e-2), 1e-9);
}

TEST(BloomMathTest, OptimalNumProbes) {
  EXPECT_EQ(OptimalNumProbes(0.5), 1);
  EXPECT_EQ(OptimalNumProbes(1), 1);
  EXPECT_EQ(OptimalNumProbes(BitsPerKeyForFpRate(0.01)), 7);  // 6.64.
  EXPECT_EQ(OptimalNumProbes(10), 7);  // 6.93.
  EXPECT_EQ(OptimalNumProbes(20), 14);  // 13.86.
}

TEST(BloomMathTest, SizedForAnFpRateDeliversIt) {
  // A standard filter sized by BitsPerKeyForFpRate with OptimalNumProbes
  // reaches the target up to the rounding of k.
  for (double p : {0.2, 0.05, 0.01, 0.001, 1e-5}) {
    const double bits_per_key = BitsPerKeyForFpRate(p);
    const double fp = StandardBloomFpRate(1e6, 1e6 * bits_per_key,
                                          OptimalNumProbes(bits_per_key));
    EXPECT_GT(fp, p * 0.9) << p;
    EXPECT_LT(fp, p * 1.1) << p;
  }
}

TEST(BloomMathTest, StandardBloomFpRate) {
  // (1 - e^(-kn/m))^k.
  EXPECT_NEAR(StandardBloomFpRate(1000, 10000, 6), 0.0084362093, 1e-9);
  EXPECT_NEAR(StandardBloomFpRate(1000, 10000, 1), 0.0951625820, 1e-9);
  EXPECT_NEAR(StandardBloomFpRate(1, 64, 6), 5.136136e-7, 1e-12);
  EXPECT_EQ(StandardBloomFpRate(0, 64, 6), 0.0);
  EXPECT_EQ(StandardBloomFpRate(10, 0, 6), 1.0);
  // Only the ratio n/m matters.
  EXPECT_DOUBLE_EQ(StandardBloomFpRate(10, 100, 4), StandardBloomFpRate(1e6, 1e7, 4));
  // More keys: worse; more bits: better.
  EXPECT_LT(StandardBloomFpRate(100, 10000, 6), StandardBloomFpRate(200, 10000, 6));
  EXPECT_GT(StandardBloomFpRate(100, 1000, 6), StandardBloomFpRate(100, 2000, 6));
}

TEST(BloomMathTest, LevelDbExpectedFpRateAddsHashCollisions) {
  EXPECT_EQ(LevelDbExpectedFpRate(0, 10), 0.0);
  // Small n: the Bloom term dominates (the 64-bit minimum applies at n = 1).
  EXPECT_NEAR(LevelDbExpectedFpRate(1, 10), 5.136136e-7 + 1 / 4294967296.0, 1e-12);
  EXPECT_NEAR(LevelDbExpectedFpRate(1000, 10), 0.0084362093, 1e-6);
  // 10M keys: the 32-bit hash adds 1 - (1 - 2^-32)^n = 0.2326% (of the
  // 99.16% the Bloom part lets through): 0.843621% + 0.230601%.
  EXPECT_NEAR(LevelDbExpectedFpRate(10000000, 10), 0.0107422, 1e-6);
  // Never above 1, even when every probe of a full filter hits.
  EXPECT_LE(LevelDbExpectedFpRate(size_t{1} << 40, 1), 1.0);
}

TEST(BloomMathTest, Hash32CollisionsSaturate) {
  // 1 - (1 - 2^-32)^n: n / 2^32 while small, e^-1 short of 1 at n = 2^32,
  // 1 (not n / 2^32 > 1) far past it.
  EXPECT_EQ(Hash32CollisionRate(0), 0.0);
  EXPECT_NEAR(Hash32CollisionRate(1e6), 1e6 / 4294967296.0, 1e-7);
  EXPECT_NEAR(Hash32CollisionRate(4294967296.0), 1 - std::exp(-1.0), 1e-9);
  EXPECT_EQ(Hash32CollisionRate(1e15), 1.0);
  EXPECT_NEAR(WithHash32Collisions(0.5, 4294967296.0), 0.5 + 0.5 * (1 - std::exp(-1.0)), 1e-9);
}

TEST(BloomMathTest, LevelDbProbesReachAtMost2To32Bits) {
  // A 32-bit hash modulo the bit count never reaches bits past 2^32: a
  // 1 GiB LevelDB-format array is a 512 MiB one for the FP rate.
  EXPECT_EQ(LevelDbReachableBits(1000), 1000);
  EXPECT_EQ(LevelDbReachableBits(8589934592.0), 4294967296.0);
  // 2^29 keys at 16 bits/key (k = 11): 2^33 bits, of which probes reach
  // 2^32, so the Bloom part sees 2^29 keys in 2^32 bits: (1 - e^(-11/8))^11.
  // An absent key also passes when its hash equals one of the 2^29 present
  // ones: 1 - (1 - 2^-32)^(2^29) = 1 - e^(-1/8) (to 1e-11).
  const size_t n = size_t{1} << 29;
  const double bloom = std::pow(1 - std::exp(-11.0 / 8), 11);  // 4.05%
  const double collision = 1 - std::exp(-1.0 / 8);              // 11.75%
  EXPECT_NEAR(LevelDbExpectedFpRate(n, 16), bloom + (1 - bloom) * collision, 1e-9);  // 15.3%
}

}  // namespace
}  // namespace sstfilter
