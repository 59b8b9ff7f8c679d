#include "filter/compact/kernels.h"

namespace sstfilter {

CompactQueryKernel GetCompactQueryKernel(SimdLevel level) {
  switch (level) {
    case SimdLevel::kAvx512:
      return compact_internal::Avx512QueryKernel();
    case SimdLevel::kAvx2:
      return compact_internal::Avx2QueryKernel();
    case SimdLevel::kScalar:
    case SimdLevel::kNeon:  // No NEON kernel: scalar.
      break;
  }
  return nullptr;
}

}  // namespace sstfilter
