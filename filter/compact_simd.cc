#include "filter/compact_simd.h"

namespace sstfilter {

CompactQueryKernel GetCompactQueryKernel(SimdLevel level) {
  return level == SimdLevel::kAvx512 ? compact_internal::Avx512QueryKernel() : nullptr;
}

}  // namespace sstfilter
