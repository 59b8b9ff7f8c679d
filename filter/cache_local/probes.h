// Probe math of the cache-local Bloom encoding: pure, header-only, no
// allocation and no format parsing (that is cache_local/bloom.h).
//
// A key's 64-bit hash h is split in two halves:
//   - the upper 32 bits pick the line: (hi * num_lines) >> 32 (Lemire's
//     "fastrange": a multiply and a shift instead of a division; exact for
//     every num_lines < 2^32, all products fit in 64 bits);
//   - the lower 32 bits `seed` give the k bit positions inside that 512-bit
//     line: probe i is bit (seed * kProbeMultipliers[i]) >> 23, i.e. the top
//     9 bits of a 32-bit product. Bit p of a line is bit p % 8 of byte p / 8.
// All k probes of a key land in one 64-byte cache line, so a query costs one
// cache miss at most.
//
// Narrow lines (small filters, cache_local/math.h: lines of 1..63 bytes)
// use the same rule at their width: the line is (hi * num_lines) >> 32,
// probe i is bit (product * line_bits) >> 32 of the same 32-bit product
// (fastrange again; for 512 bits it is the top 9 bits, as above), and the
// line starts at line * line_bytes. They are read byte by byte (a 64-bit
// load could run past the filter's end). Probes are drawn with replacement (two may coincide),
// which is what the FP formula in cache_local/math.h assumes.
//
// The multipliers are 32 distinct odd constants taken from a splitmix64
// stream; any fixed odd set works, these are part of the format. Being
// independent per probe (rather than powers of one constant) lets SIMD code
// compute 8 or 16 probes with a single lane-wise multiply.
#ifndef SSTFILTER_FILTER_CACHE_LOCAL_PROBES_H_
#define SSTFILTER_FILTER_CACHE_LOCAL_PROBES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sstfilter::cache_local {

inline constexpr size_t kLineBytes = 64;
inline constexpr int kLogLineBytes = 6;
inline constexpr uint32_t kLineBits = 512;
// Probes per key are 1..kMaxProbes (the multiplier table's length).
inline constexpr int kMaxProbes = 32;
// Lines are counted in 32 bits: at most 2^32 - 1 lines (256 GiB of filter).
inline constexpr uint64_t kMaxLines = 0xffffffffu;

alignas(64) inline constexpr uint32_t kProbeMultipliers[kMaxProbes] = {
    0xd59430c5, 0xa3590871, 0xc5391b15, 0x8ecb5def,
    0x7800a77f, 0x5b37c937, 0x40ad19c3, 0x230bb809,
    0x0ca58081, 0xebda172d, 0x7bebd78b, 0x5ed8e3dd,
    0xe8aaf8a5, 0xc2a5b441, 0x376af127, 0x2b723739,
    0xbbc939b1, 0x8798eb3b, 0x18294ec5, 0x708b20df,
    0x5d5c9531, 0xd1298f03, 0x9e6be025, 0xf3aacbcb,
    0xdc941c6b, 0x74ab681f, 0x1600a697, 0xa0084a87,
    0xef91ef9f, 0xffc9493d, 0xcb2bc359, 0x2d026d19,
};

// Index of the line hash h probes. REQUIRES: 1 <= num_lines <= kMaxLines.
inline uint32_t LineIndex(uint64_t h, uint32_t num_lines) {
  return static_cast<uint32_t>(((h >> 32) * num_lines) >> 32);
}

// Byte offset of that line in the bit array; 64-bit so that filters past
// 4 GiB do not wrap.
inline size_t LineOffset(uint64_t h, uint32_t num_lines) {
  return static_cast<size_t>(LineIndex(h, num_lines)) << kLogLineBytes;
}

// Prefetches the line of hash h, both its ends: filter bytes need not be
// 64-byte aligned, and then every line straddles two cache lines. Low
// temporal locality (prefetcht2, as RocksDB's own filters use): a batch of
// 32 keys issues 64 prefetches when filters sit at a block cache's 16-byte
// alignment, and with prefetcht0 a batch stalled on them out of cache
// (docs/results.md#filters-through-rocksdbs-reader). In cache the hint makes
// no difference.
inline void PrefetchLine(const char* array, uint64_t h, uint32_t num_lines) {
  const char* line = array + LineOffset(h, num_lines);
  __builtin_prefetch(line, 0, 1);
  __builtin_prefetch(line + kLineBytes - 1, 0, 1);
}

inline void PrefetchLineForWrite(char* array, uint64_t h, uint32_t num_lines) {
  char* line = array + LineOffset(h, num_lines);
  __builtin_prefetch(line, 1);
  __builtin_prefetch(line + kLineBytes - 1, 1);
}

inline uint32_t ProbeSeed(uint64_t h) { return static_cast<uint32_t>(h); }

// Bit position (0..511) of probe i in the line. REQUIRES: 0 <= i < kMaxProbes.
inline uint32_t ProbeBit(uint32_t seed, int i) {
  return (seed * kProbeMultipliers[i]) >> 23;
}

inline uint64_t LoadWord(const char* line, uint32_t bit) {
  uint64_t w;
  std::memcpy(&w, line + (bit >> 6) * 8, sizeof(w));  // Little-endian host.
  return w;
}

// Whether all k probes of seed are set in the 64-byte line. Branch-free:
// absent keys would otherwise mispredict at a random probe.
inline bool LineMayMatch(const char* line, uint32_t seed, int k) {
  uint64_t all = 1;
  for (int i = 0; i < k; ++i) {
    const uint32_t bit = ProbeBit(seed, i);
    all &= LoadWord(line, bit) >> (bit & 63);
  }
  return all & 1;
}

// LineMayMatch's answer, returning at the first clear probe.
inline bool LineMayMatchEarlyExit(const char* line, uint32_t seed, int k) {
  for (int i = 0; i < k; ++i) {
    const uint32_t bit = ProbeBit(seed, i);
    if (((LoadWord(line, bit) >> (bit & 63)) & 1) == 0) return false;
  }
  return true;
}

// Sets the k probes of seed in the 64-byte line.
inline void LineAdd(char* line, uint32_t seed, int k) {
  for (int i = 0; i < k; ++i) {
    const uint32_t bit = ProbeBit(seed, i);
    const uint64_t w = LoadWord(line, bit) | (uint64_t{1} << (bit & 63));
    std::memcpy(line + (bit >> 6) * 8, &w, sizeof(w));
  }
}

// Bit position (0..line_bits - 1) of probe i in a narrow line.
// REQUIRES: 1 <= line_bits <= 512, 0 <= i < kMaxProbes.
inline uint32_t NarrowProbeBit(uint32_t seed, int i, uint32_t line_bits) {
  return static_cast<uint32_t>((uint64_t{seed * kProbeMultipliers[i]} * line_bits) >> 32);
}

// Byte offset of hash h's line among num_lines narrow lines of line_bytes.
inline size_t NarrowLineOffset(uint64_t h, uint32_t num_lines, uint32_t line_bytes) {
  return static_cast<size_t>(LineIndex(h, num_lines)) * line_bytes;
}

// Whether all k probes of seed are set in a narrow line of line_bytes bytes.
inline bool NarrowLineMayMatch(const char* line, uint32_t seed, int k, uint32_t line_bytes) {
  const uint32_t line_bits = line_bytes * 8;
  unsigned all = 1;
  for (int i = 0; i < k; ++i) {
    const uint32_t bit = NarrowProbeBit(seed, i, line_bits);
    all &= static_cast<unsigned char>(line[bit >> 3]) >> (bit & 7);
  }
  return all & 1;
}

// Sets the k probes of seed in a narrow line of line_bytes bytes.
inline void NarrowLineAdd(char* line, uint32_t seed, int k, uint32_t line_bytes) {
  const uint32_t line_bits = line_bytes * 8;
  for (int i = 0; i < k; ++i) {
    const uint32_t bit = NarrowProbeBit(seed, i, line_bits);
    line[bit >> 3] = static_cast<char>(line[bit >> 3] | (1 << (bit & 7)));
  }
}

// Keys the add loop prefetches ahead: enough to overlap the misses of a
// filter bigger than the cache, few enough to stay in L1.
inline constexpr size_t kAddPrefetchDistance = 16;

// The loops every kernel level shares, around its own line functions:
//   line_add(char* line, uint32_t seed, int k)
//   line_may_match(const char* line, uint32_t seed, int k) -> bool
// Always inlined into the kernel, so that line functions compiled for the
// kernel's instruction set (target attributes) inline into the loop too.
template <typename LineAddFn>
__attribute__((always_inline)) inline void AddHashes(const uint64_t* hashes, size_t n, int k,
                                                     char* array, uint32_t num_lines,
                                                     LineAddFn line_add) {
  for (size_t i = 0; i < n; ++i) {
    if (i + kAddPrefetchDistance < n) {
      PrefetchLineForWrite(array, hashes[i + kAddPrefetchDistance], num_lines);
    }
    line_add(array + LineOffset(hashes[i], num_lines), ProbeSeed(hashes[i]), k);
  }
}

template <typename LineMayMatchFn>
__attribute__((always_inline)) inline void QueryHashes(const uint64_t* hashes, size_t n, int k,
                                                       const char* array, uint32_t num_lines,
                                                       bool* out, LineMayMatchFn line_may_match) {
  for (size_t i = 0; i < n; ++i) {
    out[i] = line_may_match(array + LineOffset(hashes[i], num_lines), ProbeSeed(hashes[i]), k);
  }
}

}  // namespace sstfilter::cache_local

#endif  // SSTFILTER_FILTER_CACHE_LOCAL_PROBES_H_
