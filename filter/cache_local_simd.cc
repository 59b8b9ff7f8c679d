#include "filter/cache_local_simd.h"

#include <cassert>

#include "filter/cache_local_probes.h"

namespace sstfilter {
namespace {

namespace cl = cache_local;

SSTFILTER_CACHE_LOCAL_KERNELS(, Scalar, cl::LineAdd, cl::LineMayMatch);

std::vector<SimdLevel> DetectLevels() {
  std::vector<SimdLevel> levels = {SimdLevel::kScalar};
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (cache_local_internal::Avx2Kernels() != nullptr && __builtin_cpu_supports("avx2")) {
    levels.push_back(SimdLevel::kAvx2);
  }
  if (cache_local_internal::Avx512Kernels() != nullptr &&
      __builtin_cpu_supports("avx512f")) {
    levels.push_back(SimdLevel::kAvx512);
  }
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

const CacheLocalKernels& GetCacheLocalKernels(SimdLevel level) {
  switch (level) {
    case SimdLevel::kAvx2:
      if (auto* kernels = cache_local_internal::Avx2Kernels()) return *kernels;
      break;
    case SimdLevel::kAvx512:
      if (auto* kernels = cache_local_internal::Avx512Kernels()) return *kernels;
      break;
    case SimdLevel::kScalar:
      return kScalarKernels;
  }
  assert(false && "SIMD level not compiled in");
  return kScalarKernels;
}

}  // namespace sstfilter
