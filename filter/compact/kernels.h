// Batched query kernels of the compact encoding's fuse body, chosen at run
// time by CPU (SimdLevel, filter/simd_level.h).
//
// A kernel answers a group of already hashed keys: it maps every hash to its
// four cells (compact/probes.h: CellsOf, ProbeOf), prefetches them, then
// probes. Every kernel gives the answers FuseMayMatch gives: the format is
// defined by compact/probes.h alone.
//
// AVX-512 and AVX2 have kernels (8 and 4 keys per register): the 64x64->128
// multiplies and the cell arithmetic are where a batched query's time went.
// The cells are then loaded by scalar code (compact/located_group.h), not
// gathered: on Zen 4 gathers were no faster in cache, and Intel's microcode
// for Gather Data Sampling slows them down. Groups of fewer than
// kCompactSimdMinGroup keys stay scalar: a kernel hashes the whole group
// before its first prefetch, and with fewer than 16 keys out of cache the
// scalar loop (hash, locate, prefetch key by key) overlapped its misses
// better (README, "SIMD").
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

// The kernel of `level`, nullptr when the level has none (scalar, AVX2).
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
