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

// Part numbers as Linux's arch/arm64/include/asm/cputype.h lists them.
TEST(CpuModel, ArmCores) {
  EXPECT_EQ(cpu_model_internal::ArmCoreName(0x41, 0xd0c), "Neoverse N1");  // Graviton2.
  EXPECT_EQ(cpu_model_internal::ArmCoreName(0x41, 0xd40), "Neoverse V1");  // Graviton3.
  EXPECT_EQ(cpu_model_internal::ArmCoreName(0x41, 0xd4f), "Neoverse V2");  // Grace, Graviton4.
  EXPECT_EQ(cpu_model_internal::ArmCoreName(0x41, 0xd08), "Cortex-A72");   // Raspberry Pi 4.
  EXPECT_EQ(cpu_model_internal::ArmCoreName(0xc0, 0xac3), "AmpereOne");
  // An implementer's part is not another's.
  EXPECT_EQ(cpu_model_internal::ArmCoreName(0x51, 0xd0c), "");
  EXPECT_EQ(cpu_model_internal::ArmCoreName(0x41, 0xfff), "");
}

TEST(CpuModel, ArmDescriptionFromMidr) {
  // Implementer 0x41, variant 3, architecture 0xf, part 0xd0c, revision 1.
  EXPECT_EQ(cpu_model_internal::ArmCpuName(0x413fd0c1),
            "ARM Neoverse N1 (implementer 0x41 part 0xd0c)");
  EXPECT_EQ(cpu_model_internal::ArmCpuName(0x610f0220), "Apple (implementer 0x61 part 0x22)");
  // QEMU's "max" CPU.
  EXPECT_EQ(cpu_model_internal::ArmCpuName(0x000f0510),
            "software-defined (an emulator) (implementer 0x0 part 0x51)");
}

TEST(CpuModel, NamesTheCpuOfThisMachine) {
#if defined(SSTFILTER_X86_SIMD_TARGETS)
  EXPECT_NE(CpuModelName().find("(family 0x"), std::string::npos) << CpuModelName();
#elif defined(__aarch64__) && defined(__linux__)
  EXPECT_NE(CpuModelName().find("(implementer 0x"), std::string::npos) << CpuModelName();
#else
  GTEST_SKIP() << "neither x86-64 nor aarch64 Linux: no CPU identification to read";
#endif
}

}  // namespace
}  // namespace sstfilter
