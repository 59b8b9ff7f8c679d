#include "filter/cpu_model.h"

#include <cstring>

#include "filter/simd_level.h"  // SSTFILTER_X86_SIMD_TARGETS

#ifdef SSTFILTER_X86_SIMD_TARGETS
#include <cpuid.h>
#endif
#if defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"

namespace sstfilter {
namespace {

#ifdef SSTFILTER_X86_SIMD_TARGETS
// CPUID's brand string (leaves 0x80000002-4), trimmed; empty if absent.
std::string CpuBrand() {
  unsigned top = __get_cpuid_max(0x80000000u, nullptr);
  if (top < 0x80000004u) return "";
  char brand[49] = {};
  for (unsigned i = 0; i < 3; ++i) {
    unsigned regs[4];
    __get_cpuid(0x80000002u + i, &regs[0], &regs[1], &regs[2], &regs[3]);
    std::memcpy(brand + 16 * i, regs, sizeof(regs));
  }
  return std::string(absl::StripAsciiWhitespace(brand));
}
#endif

}  // namespace

std::string cpu_model_internal::AmdCoreName(unsigned family, unsigned model) {
  // Model ranges per family as Linux's arch/x86/kernel/cpu/amd.c sorts them.
  struct Range {
    unsigned family, first, last;
    const char* core;
  };
  static constexpr Range kRanges[] = {
      {0x17, 0x00, 0x2f, "Zen or Zen+"}, {0x17, 0x50, 0x5f, "Zen or Zen+"},
      {0x17, 0x30, 0x4f, "Zen 2"},       {0x17, 0x60, 0x7f, "Zen 2"},
      {0x17, 0x90, 0x91, "Zen 2"},       {0x17, 0xa0, 0xaf, "Zen 2"},
      {0x19, 0x00, 0x0f, "Zen 3"},       {0x19, 0x20, 0x5f, "Zen 3"},
      {0x19, 0x10, 0x1f, "Zen 4"},       {0x19, 0x60, 0xaf, "Zen 4"},
      {0x1a, 0x00, 0x2f, "Zen 5"},       {0x1a, 0x40, 0x4f, "Zen 5"},
      {0x1a, 0x60, 0x7f, "Zen 5"},       {0x1a, 0x50, 0x5f, "Zen 6"},
      {0x1a, 0x80, 0xaf, "Zen 6"},       {0x1a, 0xc0, 0xcf, "Zen 6"},
  };
  for (const Range& r : kRanges) {
    if (r.family == family && model >= r.first && model <= r.last) return r.core;
  }
  return "";
}

namespace {

// MIDR_EL1 implementer codes (the Arm ARM's list, as Linux's cputype.h).
const char* ArmImplementerName(unsigned implementer) {
  switch (implementer) {
    case 0x00: return "software-defined (an emulator)";
    case 0x41: return "ARM";
    case 0x42: return "Broadcom";
    case 0x43: return "Cavium";
    case 0x46: return "Fujitsu";
    case 0x48: return "HiSilicon";
    case 0x4e: return "NVIDIA";
    case 0x51: return "Qualcomm";
    case 0x61: return "Apple";
    case 0xc0: return "Ampere";
    default: return "ARM-architecture";
  }
}

}  // namespace

std::string cpu_model_internal::ArmCoreName(unsigned implementer, unsigned part) {
  struct Core {
    unsigned implementer, part;
    const char* name;
  };
  static constexpr Core kCores[] = {
      {0x41, 0xd03, "Cortex-A53"},  {0x41, 0xd04, "Cortex-A35"},  {0x41, 0xd05, "Cortex-A55"},
      {0x41, 0xd07, "Cortex-A57"},  {0x41, 0xd08, "Cortex-A72"},  {0x41, 0xd09, "Cortex-A73"},
      {0x41, 0xd0a, "Cortex-A75"},  {0x41, 0xd0b, "Cortex-A76"},  {0x41, 0xd0c, "Neoverse N1"},
      {0x41, 0xd0d, "Cortex-A77"},  {0x41, 0xd40, "Neoverse V1"}, {0x41, 0xd41, "Cortex-A78"},
      {0x41, 0xd44, "Cortex-X1"},   {0x41, 0xd46, "Cortex-A510"}, {0x41, 0xd47, "Cortex-A710"},
      {0x41, 0xd48, "Cortex-X2"},   {0x41, 0xd49, "Neoverse N2"}, {0x41, 0xd4b, "Cortex-A78C"},
      {0x41, 0xd4d, "Cortex-A715"}, {0x41, 0xd4e, "Cortex-X3"},   {0x41, 0xd4f, "Neoverse V2"},
      {0x41, 0xd80, "Cortex-A520"}, {0x41, 0xd81, "Cortex-A720"}, {0x41, 0xd82, "Cortex-X4"},
      {0x41, 0xd84, "Neoverse V3"}, {0x41, 0xd8e, "Neoverse N3"}, {0x43, 0x0af, "ThunderX2"},
      {0x46, 0x001, "A64FX"},       {0x48, 0xd01, "TaiShan v110"}, {0xc0, 0xac3, "AmpereOne"},
  };
  for (const Core& c : kCores) {
    if (c.implementer == implementer && c.part == part) return c.name;
  }
  return "";
}

std::string cpu_model_internal::ArmCpuName(unsigned long long midr) {
  const unsigned implementer = (midr >> 24) & 0xff, part = (midr >> 4) & 0xfff;
  const std::string core = ArmCoreName(implementer, part);
  return absl::StrFormat("%s%s (implementer 0x%x part 0x%x)", ArmImplementerName(implementer),
                         core.empty() ? "" : " " + core, implementer, part);
}

std::string CpuModelName() {
#ifdef SSTFILTER_X86_SIMD_TARGETS
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return "x86-64 (no CPUID)";
  unsigned family = (eax >> 8) & 0xf, model = (eax >> 4) & 0xf;
  if (family == 0xf) family += (eax >> 20) & 0xff;
  if (family == 0x6 || family >= 0xf) model |= ((eax >> 16) & 0xf) << 4;
  __get_cpuid(0, &eax, &ebx, &ecx, &edx);
  const bool amd = ebx == 0x68747541u;  // "Auth" of "AuthenticAMD".
  const std::string core = amd ? cpu_model_internal::AmdCoreName(family, model) : "";
  std::string brand = CpuBrand();
  if (brand.empty()) brand = amd ? "AMD" : "x86-64";
  return absl::StrFormat("%s (family 0x%x model 0x%x%s)", brand, family, model,
                         core.empty() ? "" : ": " + core);
#elif defined(__aarch64__) && defined(__linux__)
  // Linux emulates the MIDR_EL1 read for user space where HWCAP_CPUID says so.
  if ((getauxval(AT_HWCAP) & HWCAP_CPUID) == 0) return "aarch64 (no MIDR_EL1 to read)";
  unsigned long long midr = 0;
  asm("mrs %0, MIDR_EL1" : "=r"(midr));
  return cpu_model_internal::ArmCpuName(midr);
#else
  return "neither x86-64 nor aarch64 (scalar kernels only)";
#endif
}

}  // namespace sstfilter
