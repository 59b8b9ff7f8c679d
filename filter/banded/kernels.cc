#include "filter/banded/kernels.h"

#include "filter/banded/query.h"

namespace sstfilter {

namespace {

namespace bd = banded;

bool MayMatchScalar(const bd::Layers& layers, uint64_t hash) {
  return bd::QueryHash(layers, hash, bd::ProbeLocated);
}

void MayMatchHashesScalar(const bd::Layers& layers, const uint64_t* hashes, size_t n,
                          bool* out) {
  bd::QueryHashes(layers, hashes, n, out, bd::ProbeLocated);
}

bool HasVpopcntq() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  return __builtin_cpu_supports("avx512vpopcntdq");
#else
  return false;
#endif
}

}  // namespace

BandedKernels banded_internal::ScalarKernels() {
  return {MayMatchScalar, MayMatchHashesScalar, "scalar"};
}

BandedKernels GetBandedKernels(SimdLevel level) {
  BandedKernels kernels{};
  switch (level) {
    case SimdLevel::kAvx512:
      if (HasVpopcntq()) kernels = banded_internal::Avx512Kernels();
      if (kernels.name == nullptr) kernels = banded_internal::Avx2Kernels();
      break;
    case SimdLevel::kAvx2:
      kernels = banded_internal::Avx2Kernels();
      break;
    case SimdLevel::kNeon:
      kernels = banded_internal::NeonKernels();
      break;
    case SimdLevel::kScalar:
      break;
  }
  return kernels.name != nullptr ? kernels : banded_internal::ScalarKernels();
}

}  // namespace sstfilter
