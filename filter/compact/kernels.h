// Batched query kernels of the compact encoding's fuse body, chosen at run
// time by CPU (SimdLevel, filter/simd_level.h).
//
// A kernel answers a group of already hashed keys: it maps every hash to its
// four cells (compact/probes.h: CellsOf, ProbeOf), prefetches them, then
// probes. Every kernel gives the answers FuseMayMatch gives: the format is
// defined by compact/probes.h alone.
//
// AVX-512 and AVX2 have kernels (8 and 4 keys per register): the 64x64->128
// multiplies and the cell arithmetic are where a batched query's time goes.
// The cells are then loaded by scalar code (compact/located_group.h), not
// gathered: gathers gain nothing over scalar loads in cache, and Intel's
// microcode for Gather Data Sampling slows them down. Groups of fewer than
// kCompactSimdMinGroup keys stay scalar: a kernel hashes the whole group
// before its first prefetch, while the scalar loop (hash, locate, prefetch
// key by key) overlaps the misses of a small group out of cache better.
// Both as measured in docs/results.md#compact-simd-kernels.
#ifndef SSTFILTER_FILTER_COMPACT_KERNELS_H_
#define SSTFILTER_FILTER_COMPACT_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "filter/simd_level.h"
#include "filter/compact/probes.h"

namespace sstfilter {

inline constexpr size_t kCompactSimdMinGroup = 16;
inline constexpr size_t kCompactSimdMaxGroup = 32;

// out[i] = whether hashes[i] may be in the fuse filter whose cells start at
// `array` (of the shape p; multiplier = SeedMultiplier(its seed)).
// REQUIRES: n <= kCompactSimdMaxGroup; the array is followed by at least 7
// readable bytes (the trailer).
using CompactQueryKernel = void (*)(const uint64_t* hashes, size_t n, const char* array,
                                    uint64_t multiplier, const compact::FuseParams& p,
                                    bool* out);

// The kernel of `level`: nullptr for kScalar, and where the compiler could
// not target the level's instruction set (compact_internal below).
// REQUIRES: level is supported (ClampSimdLevel).
CompactQueryKernel GetCompactQueryKernel(SimdLevel level);

namespace compact_internal {
// Defined in compact/avx2.cc / compact/avx512.cc; nullptr where the
// compiler cannot target the instruction set.
CompactQueryKernel Avx2QueryKernel();
CompactQueryKernel Avx512QueryKernel();
}  // namespace compact_internal

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_COMPACT_KERNELS_H_
