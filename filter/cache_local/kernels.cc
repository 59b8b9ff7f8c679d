#include "filter/cache_local/kernels.h"

#include <cassert>

#include "filter/cache_local/probes.h"

namespace sstfilter {
namespace {

namespace cl = cache_local;

// Single keys return at the first clear probe (see the macro).
SSTFILTER_CACHE_LOCAL_KERNELS(, Scalar, cl::LineAdd, cl::LineMayMatch, cl::LineMayMatchEarlyExit);

}  // namespace

const CacheLocalKernels& GetCacheLocalKernels(SimdLevel level) {
  switch (level) {
    case SimdLevel::kAvx2:
      if (auto* kernels = cache_local_internal::Avx2Kernels()) return *kernels;
      break;
    case SimdLevel::kAvx512:
      if (auto* kernels = cache_local_internal::Avx512Kernels()) return *kernels;
      break;
    case SimdLevel::kNeon:
      if (auto* kernels = cache_local_internal::NeonKernels()) return *kernels;
      break;
    case SimdLevel::kScalar:
      return kScalarKernels;
  }
  assert(false && "SIMD level not compiled in");
  return kScalarKernels;
}

}  // namespace sstfilter
