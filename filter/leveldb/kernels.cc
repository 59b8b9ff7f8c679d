#include "filter/leveldb/kernels.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <utility>

#include "filter/leveldb/hash.h"
#include "filter/leveldb/probes.h"

namespace sstfilter {
namespace {

template <int K>
void SetProbes(const uint32_t* hashes, size_t n, const FastMod32& bit_divisor, char* array) {
  for (size_t i = 0; i < n; ++i) {
    leveldb_probes::ForEachProbeFixed<K>(hashes[i], bit_divisor, [array](uint32_t pos) {
      leveldb_probes::SetBit(array, pos);
      return true;
    });
  }
}

template <int K>
bool TestHash(uint32_t h, const FastMod32& bit_divisor, const char* array) {
  return leveldb_probes::ForEachProbeFixed<K>(
      h, bit_divisor, [array](uint32_t pos) { return leveldb_probes::TestBit(array, pos); });
}

// Hashing inside the kernel: one indirect call per query, not two.
template <int K>
bool TestKey(std::string_view key, const FastMod32& bit_divisor, const char* array) {
  return TestHash<K>(LevelDbBloomHash(key), bit_divisor, array);
}

template <int K>
void TestBatch(const uint32_t* hashes, size_t n, const FastMod32& bit_divisor,
               const char* array, bool* out) {
  // Chunks of up to kChunk hashes: compute and prefetch all probe
  // positions of each, then test them. The prefetches overlap the cache
  // misses that single queries take one after another; the positions are
  // kept (kChunk * K * 4 bytes on the stack) so they are computed once.
  constexpr size_t kChunk = 32;
  uint32_t positions[kChunk][K];
  for (size_t base = 0; base < n; base += kChunk) {
    const size_t count = std::min(kChunk, n - base);
    for (size_t i = 0; i < count; ++i) {
      uint32_t* pos = positions[i];
      leveldb_probes::ForEachProbeFixed<K>(hashes[base + i], bit_divisor,
                                           [array, &pos](uint32_t p) {
                                             __builtin_prefetch(array + (p >> 3));
                                             *pos++ = p;
                                             return true;
                                           });
    }
    for (size_t i = 0; i < count; ++i) {
      bool match = true;
#pragma GCC unroll 32
      for (int j = 0; j < K; ++j) {
        if (!leveldb_probes::TestBit(array, positions[i][j])) {
          match = false;
          break;
        }
      }
      out[base + i] = match;
    }
  }
}

template <int K>
constexpr LevelDbKernels KernelsFor() {
  return {&SetProbes<K>, &TestHash<K>, &TestKey<K>, &TestBatch<K>};
}

template <size_t... I>
constexpr std::array<LevelDbKernels, sizeof...(I)> MakeKernels(std::index_sequence<I...>) {
  return {KernelsFor<static_cast<int>(I) + 1>()...};
}

// kKernels[k - 1] for k = 1..kLevelDbMaxProbes.
constexpr std::array<LevelDbKernels, kLevelDbMaxProbes> kKernels =
    MakeKernels(std::make_index_sequence<kLevelDbMaxProbes>{});

}  // namespace

const LevelDbKernels& GetLevelDbKernels(int k) {
  assert(k >= 1 && k <= kLevelDbMaxProbes);
  return kKernels[k - 1];
}

}  // namespace sstfilter
