// The cache-local encoding at every SIMD level: each level's builder writes
// the scalar builder's bytes, its readers and kernels give the scalar
// answers and the probe rule's (cache_local/probes.h, written out here) for
// every k, and no level has false negatives. Levels this machine (or the
// SSTFILTER_SIMD cap) lacks are reported as skipped, by name.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "filter/cache_local/bloom.h"
#include "filter/cache_local/kernels.h"
#include "filter/cache_local/probes.h"
#include "filter/simd_level.h"
#include "gtest/gtest.h"
#include "tests/filter_test_util.h"

namespace sstfilter {
namespace {

namespace cl = cache_local;

using testing::BuildFilter;
using testing::ExactBytes;
using testing::KeyShape;
using testing::ShapedKey;
using testing::ShapedKeys;
using testing::Views;

// Every level is instantiated; those this machine cannot run are reported
// as skipped, by name, rather than silently left out.
constexpr SimdLevel kAllSimdLevels[] = {SimdLevel::kScalar, SimdLevel::kAvx2,
                                        SimdLevel::kAvx512, SimdLevel::kNeon};

class CacheLocalBloomSimdTest : public ::testing::TestWithParam<SimdLevel> {
 protected:
  void SetUp() override {
    if (ClampSimdLevel(GetParam()) != GetParam()) {
      GTEST_SKIP() << SimdLevelName(GetParam())
                   << " is not supported on this machine (CPU or compiler): its kernels "
                      "are not tested here. "
                   << SimdCapNote();
    }
  }
};

TEST_P(CacheLocalBloomSimdTest, SameBytesAndAnswersAsScalar) {
  const SimdLevel level = GetParam();
  std::mt19937_64 rng(42);
  for (double bpk : {1.0, 3.3, 10.0, 16.0, 22.0, 40.0, 100.0}) {  // k from 1 to 23.
    for (size_t n : {1, 5, 64, 777, 5000}) {
      std::vector<std::string> keys, absent;
      for (size_t i = 0; i < n; ++i) keys.push_back(ShapedKey(KeyShape::kRandom16, rng()));
      for (size_t i = 0; i < 2000; ++i) absent.push_back(ShapedKey(KeyShape::kRandom16, rng()));
      const std::string scalar = BuildFilter<CacheLocalBloomBuilder>(keys, bpk, SimdLevel::kScalar);
      const std::string simd = BuildFilter<CacheLocalBloomBuilder>(keys, bpk, level);
      ASSERT_EQ(simd, scalar) << bpk << " " << n;
      CacheLocalBloomReader scalar_reader(scalar, SimdLevel::kScalar);
      CacheLocalBloomReader reader(simd, level);
      ASSERT_EQ(reader.simd_level(), level);
      std::vector<std::string_view> queries = Views(absent);
      queries.insert(queries.end(), keys.begin(), keys.end());
      std::unique_ptr<bool[]> batch(new bool[queries.size()]);
      reader.MayMatchBatch(queries, batch.get());
      const CacheLocalKernels& kernels = GetCacheLocalKernels(level);
      for (size_t i = 0; i < queries.size(); ++i) {
        const bool expected = scalar_reader.MayMatch(queries[i]);
        ASSERT_EQ(reader.MayMatch(queries[i]), expected);
        ASSERT_EQ(batch[i], expected) << i;
        const uint64_t h = CacheLocalBloomBuilder::HashKey(queries[i]);
        if (reader.line_bytes() == 64) {  // The kernels serve 64-byte lines only.
          ASSERT_EQ(kernels.may_match(h, reader.num_probes(), simd.data(), reader.num_lines()),
                    expected);
        }
      }
    }
  }
}

// Every k the format allows (1..32: the single-round and looped paths, full
// and partial rounds), on random lines of several densities at a block
// cache's 16-byte phase: each kernel's single and batched answers against
// the probe rule written out here (probe i is bit (seed * multiplier i) >> 23
// of the line, bit p % 8 of byte p / 8).
TEST_P(CacheLocalBloomSimdTest, KernelsAnswerAsTheProbeRuleForEveryK) {
  const CacheLocalKernels& kernels = GetCacheLocalKernels(GetParam());
  constexpr uint32_t kLines = 16;
  std::mt19937_64 rng(7);
  std::vector<char> buffer(kLines * 64 + 64);
  char* const array = buffer.data() + 16;
  for (int k = 1; k <= cl::kMaxProbes; ++k) {
    for (double density : {0.5, 0.9, 0.97, 0.995}) {
      std::bernoulli_distribution set(density);
      for (uint32_t b = 0; b < kLines * 512; ++b) {
        array[b / 8] = static_cast<char>((array[b / 8] & ~(1 << (b % 8))) | (set(rng) << (b % 8)));
      }
      uint64_t hashes[32];
      bool batch[32];
      for (uint64_t& h : hashes) h = rng();
      kernels.query(hashes, 32, k, array, kLines, batch);
      for (int j = 0; j < 32; ++j) {
        const uint64_t h = hashes[j];
        const char* line = array + ((h >> 32) * kLines >> 32) * 64;
        bool expected = true;
        for (int i = 0; i < k; ++i) {
          const uint32_t bit = (static_cast<uint32_t>(h) * cl::kProbeMultipliers[i]) >> 23;
          expected = expected && ((static_cast<unsigned char>(line[bit / 8]) >> (bit % 8)) & 1);
        }
        ASSERT_EQ(kernels.may_match(h, k, array, kLines), expected) << k << " " << density;
        ASSERT_EQ(batch[j], expected) << k << " " << density;
      }
    }
  }
}

TEST_P(CacheLocalBloomSimdTest, NoFalseNegatives) {
  for (KeyShape shape : {KeyShape::kRandom16, KeyShape::kLittleEndian64, KeyShape::kUrl}) {
    for (double bpk : {1.0, 10.0, 16.0, 100.0}) {
      for (size_t n : {1, 2, 33, 1000, 20000}) {
        const std::vector<std::string> keys = ShapedKeys(shape, 5, n);
        const std::string filter = BuildFilter<CacheLocalBloomBuilder>(keys, bpk, GetParam());
        const ExactBytes buffer(filter);
        CacheLocalBloomReader reader(buffer.view(), GetParam());
        ASSERT_EQ(reader.state(), FilterState::kProbe);
        std::unique_ptr<bool[]> batch(new bool[n]);
        reader.MayMatchBatch(Views(keys), batch.get());
        for (size_t i = 0; i < n; ++i) {
          ASSERT_TRUE(reader.MayMatch(keys[i])) << i;
          ASSERT_TRUE(batch[i]) << i;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllLevels, CacheLocalBloomSimdTest,
                         ::testing::ValuesIn(kAllSimdLevels),
                         [](const ::testing::TestParamInfo<SimdLevel>& info) {
                           return std::string(SimdLevelName(info.param));
                         });

TEST(CacheLocalSimdLevels, ScalarFirstAndClamping) {
  const std::vector<SimdLevel>& levels = SupportedSimdLevels();
  ASSERT_FALSE(levels.empty());
  EXPECT_EQ(levels.front(), SimdLevel::kScalar);
  EXPECT_EQ(BestSimdLevel(), levels.back());
  EXPECT_EQ(ClampSimdLevel(SimdLevel::kScalar), SimdLevel::kScalar);
  // The top level of this architecture clamps to the best this CPU runs.
#if defined(__aarch64__)
  EXPECT_EQ(ClampSimdLevel(SimdLevel::kNeon), BestSimdLevel());
#else
  EXPECT_EQ(ClampSimdLevel(SimdLevel::kAvx512), BestSimdLevel());
#endif
  // The SIMD suite covers every level this machine runs.
  for (SimdLevel level : levels) {
    EXPECT_NE(std::find(std::begin(kAllSimdLevels), std::end(kAllSimdLevels), level),
              std::end(kAllSimdLevels))
        << SimdLevelName(level);
  }
}

}  // namespace
}  // namespace sstfilter
