#include "filter/cpu_model.h"

#include <cstring>

#include "filter/simd_level.h"  // SSTFILTER_X86_SIMD_TARGETS

#ifdef SSTFILTER_X86_SIMD_TARGETS
#include <cpuid.h>
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
#else
  return "not x86-64 (scalar kernels only)";
#endif
}

}  // namespace sstfilter
