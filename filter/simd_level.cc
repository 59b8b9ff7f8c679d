#include "filter/simd_level.h"

#include <cstdio>
#include <cstdlib>

#if defined(SSTFILTER_ARM64_NEON) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace sstfilter {
namespace {

constexpr SimdLevel kAllLevels[] = {SimdLevel::kScalar, SimdLevel::kAvx2, SimdLevel::kAvx512,
                                    SimdLevel::kNeon};

std::vector<SimdLevel> DetectLevels() {
  std::vector<SimdLevel> levels = {SimdLevel::kScalar};
#ifdef SSTFILTER_X86_SIMD_TARGETS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) levels.push_back(SimdLevel::kAvx2);
  if (__builtin_cpu_supports("avx512f")) levels.push_back(SimdLevel::kAvx512);
#elif defined(SSTFILTER_ARM64_NEON) && defined(__linux__)
  if (getauxval(AT_HWCAP) & HWCAP_ASIMD) levels.push_back(SimdLevel::kNeon);
#elif defined(SSTFILTER_ARM64_NEON)
  levels.push_back(SimdLevel::kNeon);
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


}  // namespace

std::string_view SimdLevelName(SimdLevel level) {
  switch (level) {
    case SimdLevel::kScalar:
      return "scalar";
    case SimdLevel::kAvx2:
      return "avx2";
    case SimdLevel::kAvx512:
      return "avx512";
    case SimdLevel::kNeon:
      return "neon";
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
                            "' is not a SIMD level (scalar, avx2, avx512 or neon): ignored");
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
