// Query kernels of the banded encoding, chosen at run time by CPU
// (SimdLevel, filter/simd_level.h): banded/query.h's query instantiated
// with each instruction set's probe of a located band. Every kernel gives
// the answers of the scalar probe (ProbeLocated): the bytes are laid out
// by format.h and their meaning is probes.h's alone.
//
// Out of cache, a query's time is its memory access, overlapped with other
// queries' as far as the core holds the work waiting on them: the fewer
// instructions depend on a query's loads, the more queries are in flight.
// The scalar probe spends about 10 per column (two loads, two ANDs, an XOR,
// a parity, placing the bit); AVX-512 with VPOPCNTQ tests all columns of
// r <= 8 in two masked loads and five vector instructions, AVX2 in two
// halves of four columns with a nibble-table parity, NEON two columns to a
// register with per-byte counts summed pairwise. Wider filters (r > 8,
// past ~14 bits/key) use the scalar probe at every level.
#ifndef SSTFILTER_FILTER_BANDED_KERNELS_H_
#define SSTFILTER_FILTER_BANDED_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "filter/banded/probes.h"
#include "filter/simd_level.h"

namespace sstfilter {

struct BandedKernels {
  // Whether a key of this hash may be in the set the layers hold.
  bool (*may_match)(const banded::Layers& layers, uint64_t hash);
  // The same for n hashes (n <= banded::kMaxGroup), prefetching first.
  void (*may_match_hashes)(const banded::Layers& layers, const uint64_t* hashes, size_t n,
                           bool* out);
  // "avx512-vpopcntq", "avx2", "neon" or "scalar": the probe's instruction set.
  const char* name;
};

// The kernels of `level`: AVX-512 needs VPOPCNTQ too (AVX512_VPOPCNTDQ),
// else AVX2's serve; kNeon gets NEON's; kScalar, and a compiler that cannot
// target the set, get the scalar probe's. REQUIRES: level is supported
// (ClampSimdLevel).
BandedKernels GetBandedKernels(SimdLevel level);

namespace banded_internal {
BandedKernels ScalarKernels();
// Defined in banded/avx2.cc / banded/avx512.cc; name nullptr where the
// compiler cannot target the instruction set.
BandedKernels Avx2Kernels();
BandedKernels Avx512Kernels();
// Defined in banded/neon.cc; name nullptr but on aarch64.
BandedKernels NeonKernels();
}  // namespace banded_internal

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BANDED_KERNELS_H_
