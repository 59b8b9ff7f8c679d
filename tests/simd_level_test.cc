// SimdLevel names and the SSTFILTER_SIMD cap (filter/simd_level.h).
#include "filter/simd_level.h"

#include <cstdlib>
#include <vector>

#include "gtest/gtest.h"

namespace sstfilter {
namespace {

using simd_level_internal::CapLevels;

// The levels of an AVX-512 CPU, an AVX2-only one and a 64-bit ARM one.
const std::vector<SimdLevel> kAll = {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512};
const std::vector<SimdLevel> kAvx2Cpu = {SimdLevel::kScalar, SimdLevel::kAvx2};
const std::vector<SimdLevel> kNeonCpu = {SimdLevel::kScalar, SimdLevel::kNeon};

TEST(SimdLevel, NamesParseBack) {
  for (SimdLevel level : kAll) EXPECT_EQ(ParseSimdLevelName(SimdLevelName(level)), level);
  EXPECT_EQ(ParseSimdLevelName("neon"), SimdLevel::kNeon);
  EXPECT_EQ(SimdLevelName(SimdLevel::kNeon), "neon");
  EXPECT_EQ(ParseSimdLevelName("AVX2"), std::nullopt);
  EXPECT_EQ(ParseSimdLevelName(""), std::nullopt);
  EXPECT_EQ(ParseSimdLevelName("avx"), std::nullopt);
}

TEST(SimdCap, UnsetKeepsEveryLevel) {
  const auto capped = CapLevels(kAll, nullptr);
  EXPECT_EQ(capped.levels, kAll);
  EXPECT_EQ(capped.note, "");
  EXPECT_FALSE(capped.ignored);
}

TEST(SimdCap, DropsTheLevelsAboveTheCap) {
  auto capped = CapLevels(kAll, "avx2");
  EXPECT_EQ(capped.levels, kAvx2Cpu);
  EXPECT_EQ(capped.note, "SSTFILTER_SIMD=avx2 caps avx512");
  capped = CapLevels(kAll, "scalar");
  EXPECT_EQ(capped.levels, std::vector<SimdLevel>{SimdLevel::kScalar});
  EXPECT_EQ(capped.note, "SSTFILTER_SIMD=scalar caps avx512, avx2");
  EXPECT_FALSE(capped.ignored);
}

TEST(SimdCap, NeverAddsALevelTheCpuLacks) {
  const auto capped = CapLevels(kAvx2Cpu, "avx512");
  EXPECT_EQ(capped.levels, kAvx2Cpu);
  EXPECT_EQ(capped.note, "SSTFILTER_SIMD=avx512 caps nothing this CPU runs");
}

// Another architecture's level caps an ARM CPU to scalar, an x86 one not at
// all (filter/simd_level.h).
TEST(SimdCap, OnArmTheCapIsScalarOrNeon) {
  auto capped = CapLevels(kNeonCpu, "scalar");
  EXPECT_EQ(capped.levels, std::vector<SimdLevel>{SimdLevel::kScalar});
  EXPECT_EQ(capped.note, "SSTFILTER_SIMD=scalar caps neon");
  capped = CapLevels(kNeonCpu, "neon");
  EXPECT_EQ(capped.levels, kNeonCpu);
  capped = CapLevels(kNeonCpu, "avx2");
  EXPECT_EQ(capped.levels, std::vector<SimdLevel>{SimdLevel::kScalar});
  capped = CapLevels(kAll, "neon");
  EXPECT_EQ(capped.levels, kAll);
  EXPECT_EQ(capped.note, "SSTFILTER_SIMD=neon caps nothing this CPU runs");
}

TEST(SimdCap, ABadValueIsNamedAndIgnored) {
  const auto capped = CapLevels(kAll, "sse4");
  EXPECT_EQ(capped.levels, kAll);
  EXPECT_TRUE(capped.ignored);
  EXPECT_EQ(capped.note,
            "SSTFILTER_SIMD='sse4' is not a SIMD level (scalar, avx2, avx512 or neon): ignored");
}

// The process's own levels honour the cap it was started with (CI runs the
// suite once with SSTFILTER_SIMD=avx2 on machines that have AVX-512).
TEST(SimdCap, ThisProcess) {
  const std::vector<SimdLevel>& levels = SupportedSimdLevels();
  ASSERT_FALSE(levels.empty());
  EXPECT_EQ(levels.front(), SimdLevel::kScalar);
  const char* cap = std::getenv("SSTFILTER_SIMD");
  const std::optional<SimdLevel> level = cap == nullptr ? std::nullopt : ParseSimdLevelName(cap);
  if (level.has_value()) {
    EXPECT_LE(BestSimdLevel(), *level);
  }
}

}  // namespace
}  // namespace sstfilter
