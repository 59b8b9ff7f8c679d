// Probe generation of the LevelDB Bloom format: pure math, no memory.
//
// Double hashing (Kirsch & Mitzenmacher) with one 32-bit hash: the step is
// the hash rotated right by 17 bits, and every add wraps modulo 2^32.
// Probe i sets bit (h + i * delta) % bits, bit `pos % 8` of byte `pos / 8`.
#ifndef SSTFILTER_FILTER_LEVELDB_PROBES_H_
#define SSTFILTER_FILTER_LEVELDB_PROBES_H_

#include <cstdint>

#include "filter/leveldb/fast_mod.h"

namespace sstfilter::leveldb_probes {

inline uint32_t Delta(uint32_t h) { return (h >> 17) | (h << 15); }

// Calls visit(bit_position) for each of the k probes of hash h, in order,
// stopping early when visit returns false. Returns whether all returned true.
// bit_divisor.Mod(a) is a % bits: a FastMod32 (what readers keep), or any
// type with that Mod (one query of a filter divides: DividingMod32).
template <typename BitDivisor, typename Visit>
inline bool ForEachProbe(uint32_t h, int k, const BitDivisor& bit_divisor,
                         Visit&& visit) {
  const uint32_t delta = Delta(h);
  for (int i = 0; i < k; ++i) {
    if (!visit(bit_divisor.Mod(h))) return false;
    h += delta;
  }
  return true;
}

// ForEachProbe with k fixed at compile time, so that the loop unrolls: no
// counter or loop branch per probe, and the compiler interleaves the probes'
// multiplications.
template <int K, typename Visit>
inline bool ForEachProbeFixed(uint32_t h, const FastMod32& bit_divisor, Visit&& visit) {
  const uint32_t delta = Delta(h);
#pragma GCC unroll 32
  for (int i = 0; i < K; ++i) {
    if (!visit(bit_divisor.Mod(h))) return false;
    h += delta;
  }
  return true;
}

// a % bits by the division instruction, as LevelDB's own reader takes it
// (here a 32-bit one): what one query of a filter uses
// (LevelDbBloomReader::MayMatchOnce). For one query this beats FastMod32,
// which the readers' kernels use: its setup is itself a 64-bit division, on
// the path to every probe (present keys: 16.2 against 13.0 ns a query, Zen
// 4). Arrays of 2^32 bits or more leave a as it is, as % does.
struct DividingMod32 {
  uint64_t bits;
  uint32_t Mod(uint32_t a) const {
    return bits >= (uint64_t{1} << 32) ? a : a % static_cast<uint32_t>(bits);
  }
};

inline bool TestBit(const char* array, uint32_t pos) {
  return (static_cast<unsigned char>(array[pos >> 3]) >> (pos & 7)) & 1;
}

inline void SetBit(char* array, uint32_t pos) {
  array[pos >> 3] = static_cast<char>(array[pos >> 3] | (1 << (pos & 7)));
}

}  // namespace sstfilter::leveldb_probes

#endif  // SSTFILTER_FILTER_LEVELDB_PROBES_H_
