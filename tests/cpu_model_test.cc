// The CPU description benchmarks print (filter/cpu_model.h).
#include "filter/cpu_model.h"

#include <string>

#include "filter/simd_level.h"  // SSTFILTER_X86_SIMD_TARGETS
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

TEST(CpuModel, AmdCoreGenerations) {
  EXPECT_EQ(cpu_model_internal::AmdCoreName(0x17, 0x31), "Zen 2");  // EPYC 7002 (Rome).
  EXPECT_EQ(cpu_model_internal::AmdCoreName(0x19, 0x01), "Zen 3");  // EPYC 7003 (Milan).
  EXPECT_EQ(cpu_model_internal::AmdCoreName(0x19, 0x21), "Zen 3");  // Ryzen 5000.
  EXPECT_EQ(cpu_model_internal::AmdCoreName(0x19, 0x11), "Zen 4");  // EPYC 9004 (Genoa).
  EXPECT_EQ(cpu_model_internal::AmdCoreName(0x19, 0xa0), "Zen 4");  // EPYC 97x4 (Bergamo).
  EXPECT_EQ(cpu_model_internal::AmdCoreName(0x19, 0x61), "Zen 4");  // Ryzen 7000.
  EXPECT_EQ(cpu_model_internal::AmdCoreName(0x1a, 0x02), "Zen 5");
  EXPECT_EQ(cpu_model_internal::AmdCoreName(0x17, 0x51), "Zen or Zen+");
  EXPECT_EQ(cpu_model_internal::AmdCoreName(0x1a, 0x50), "Zen 6");
  // Models no generation lists are not guessed.
  EXPECT_EQ(cpu_model_internal::AmdCoreName(0x19, 0xc0), "");
  EXPECT_EQ(cpu_model_internal::AmdCoreName(0x17, 0x88), "");
  EXPECT_EQ(cpu_model_internal::AmdCoreName(0x15, 0x02), "");
}

TEST(CpuModel, NamesFamilyAndModel) {
#ifdef SSTFILTER_X86_SIMD_TARGETS
  EXPECT_NE(CpuModelName().find("(family 0x"), std::string::npos) << CpuModelName();
#else
  GTEST_SKIP() << "not x86-64: no CPUID to read";
#endif
}

}  // namespace
}  // namespace sstfilter
