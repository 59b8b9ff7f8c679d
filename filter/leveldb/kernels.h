// The loops of the LevelDB format, compiled once per probe count k.
//
// With k a compile-time constant the probe loop unrolls: no counter and no
// loop branch per probe, and the probes' multiplications interleave. A filter
// picks its set of kernels once (GetLevelDbKernels(k)); every kernel sets and
// tests exactly the bits leveldb_probes::ForEachProbe names, so the bytes and
// answers are those of the generic loop.
#ifndef SSTFILTER_FILTER_LEVELDB_KERNELS_H_
#define SSTFILTER_FILTER_LEVELDB_KERNELS_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "filter/leveldb/fast_mod.h"

namespace sstfilter {

// Largest k byte the LevelDB format writes; larger values tag other encodings.
inline constexpr int kLevelDbMaxProbes = 30;

struct LevelDbKernels {
  // Sets the k probes of each of hashes[0, n) in the array. bit_divisor is
  // the array's bit count (positions are taken modulo it).
  void (*set)(const uint32_t* hashes, size_t n, const FastMod32& bit_divisor, char* array);
  // Whether all k probes of hash h are set.
  bool (*test_hash)(uint32_t h, const FastMod32& bit_divisor, const char* array);
  // Whether all k probes of the key's hash are set.
  bool (*test_key)(std::string_view key, const FastMod32& bit_divisor, const char* array);
  // out[i] = test_hash(hashes[i]) for i < n, prefetching the probe bytes
  // of a group of hashes before testing any (hides cache misses out of
  // cache).
  void (*test_batch)(const uint32_t* hashes, size_t n, const FastMod32& bit_divisor,
                     const char* array, bool* out);
};

// REQUIRES: 1 <= k <= kLevelDbMaxProbes.
const LevelDbKernels& GetLevelDbKernels(int k);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_LEVELDB_KERNELS_H_
