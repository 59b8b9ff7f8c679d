#include "filter/cache_local_simd.h"

#include <cassert>

#include "filter/cache_local_probes.h"

namespace sstfilter {
namespace {

namespace cl = cache_local;

void ScalarAdd(const uint64_t* hashes, size_t n, int k, char* array,
               uint32_t num_lines) {
  cl::AddHashes(hashes, n, k, array, num_lines, cl::LineAdd);
}

bool ScalarMayMatch(uint64_t h, int k, const char* array, uint32_t num_lines) {
  return cl::LineMayMatch(array + cl::LineOffset(h, num_lines), cl::ProbeSeed(h), k);
}

void ScalarQuery(const uint64_t* hashes, size_t n, int k, const char* array,
                 uint32_t num_lines, bool* out) {
  cl::QueryHashes(hashes, n, k, array, num_lines, out, cl::LineMayMatch);
}

constexpr CacheLocalKernels kScalarKernels = {ScalarAdd, ScalarQuery, ScalarMayMatch};

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
