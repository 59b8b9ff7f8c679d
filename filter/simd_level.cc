#include "filter/simd_level.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef SSTFILTER_X86_SIMD_TARGETS
#include <cpuid.h>
#endif

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"

namespace sstfilter {
namespace {

constexpr SimdLevel kAllLevels[] = {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512};

std::vector<SimdLevel> DetectLevels() {
  std::vector<SimdLevel> levels = {SimdLevel::kScalar};
#ifdef SSTFILTER_X86_SIMD_TARGETS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) levels.push_back(SimdLevel::kAvx2);
  if (__builtin_cpu_supports("avx512f")) levels.push_back(SimdLevel::kAvx512);
#endif
  return levels;
}

const simd_level_internal::CappedLevels& Levels() {
  static const auto* levels = [] {
    auto* capped = new simd_level_internal::CappedLevels(
        simd_level_internal::CapLevels(DetectLevels(), std::getenv("SSTFILTER_SIMD")));
    // A library has no other channel for a bad environment value; once per process.
    if (capped->ignored) {
      std::fprintf(stderr, "sstfilter: %s\n", capped->note.c_str());
    }
    return capped;
  }();
  return *levels;
}

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

std::string simd_level_internal::AmdCoreName(unsigned family, unsigned model) {
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
  const std::string core = amd ? simd_level_internal::AmdCoreName(family, model) : "";
  std::string brand = CpuBrand();
  if (brand.empty()) brand = amd ? "AMD" : "x86-64";
  return absl::StrFormat("%s (family 0x%x model 0x%x%s)", brand, family, model,
                         core.empty() ? "" : ": " + core);
#else
  return "not x86-64 (scalar kernels only)";
#endif
}

std::string_view SimdLevelName(SimdLevel level) {
  switch (level) {
    case SimdLevel::kScalar:
      return "scalar";
    case SimdLevel::kAvx2:
      return "avx2";
    case SimdLevel::kAvx512:
      return "avx512";
  }
  return "unknown";
}

std::optional<SimdLevel> ParseSimdLevelName(std::string_view name) {
  for (SimdLevel level : kAllLevels) {
    if (name == SimdLevelName(level)) return level;
  }
  return std::nullopt;
}

const std::vector<SimdLevel>& SupportedSimdLevels() { return Levels().levels; }

SimdLevel BestSimdLevel() { return SupportedSimdLevels().back(); }

SimdLevel ClampSimdLevel(SimdLevel level) {
  SimdLevel best = SimdLevel::kScalar;
  for (SimdLevel l : SupportedSimdLevels()) {
    if (l <= level) best = l;
  }
  return best;
}

const std::string& SimdCapNote() { return Levels().note; }

simd_level_internal::CappedLevels simd_level_internal::CapLevels(
    const std::vector<SimdLevel>& detected, const char* cap) {
  CappedLevels out{detected, "", false};
  if (cap == nullptr) return out;
  const std::optional<SimdLevel> level = ParseSimdLevelName(cap);
  if (!level) {
    out.note = absl::StrCat("SSTFILTER_SIMD='", cap,
                            "' is not a SIMD level (scalar, avx2 or avx512): ignored");
    out.ignored = true;
    return out;
  }
  std::vector<std::string> dropped;
  while (out.levels.size() > 1 && out.levels.back() > *level) {
    dropped.emplace_back(SimdLevelName(out.levels.back()));
    out.levels.pop_back();
  }
  out.note = absl::StrCat("SSTFILTER_SIMD=", cap,
                          dropped.empty() ? " caps nothing this CPU runs"
                                          : absl::StrCat(" caps ", absl::StrJoin(dropped, ", ")));
  return out;
}

}  // namespace sstfilter
