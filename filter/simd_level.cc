#include "filter/simd_level.h"

namespace sstfilter {
namespace {

std::vector<SimdLevel> DetectLevels() {
  std::vector<SimdLevel> levels = {SimdLevel::kScalar};
#ifdef SSTFILTER_X86_SIMD_TARGETS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) levels.push_back(SimdLevel::kAvx2);
  if (__builtin_cpu_supports("avx512f")) levels.push_back(SimdLevel::kAvx512);
#endif
  return levels;
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
  }
  return "unknown";
}

const std::vector<SimdLevel>& SupportedSimdLevels() {
  static const std::vector<SimdLevel>* levels = new std::vector<SimdLevel>(DetectLevels());
  return *levels;
}

SimdLevel BestSimdLevel() { return SupportedSimdLevels().back(); }

SimdLevel ClampSimdLevel(SimdLevel level) {
  SimdLevel best = SimdLevel::kScalar;
  for (SimdLevel l : SupportedSimdLevels()) {
    if (l <= level) best = l;
  }
  return best;
}

}  // namespace sstfilter
