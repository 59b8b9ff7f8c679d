// A plain second implementation of the cache-local encoding, from its format
// facts alone (docs/encodings.md#cache-local-encoding, the format comment of
// filter/cache_local/bloom.h): the fuzz targets judge the library's readers,
// kernels and builders by it. Slow on purpose: one bit at a time, no SIMD,
// no fast-range tricks beyond the format's own definition, nothing taken
// from filter/.
//
//   filter  = bit array of num_lines lines of line_bytes, then the trailer
//             hash kind (1 = XXH3-64, seed 0) | 6 (log2 line bytes) | k | 67
//   lines   = ceil(n * bits_per_key / 512); line_bytes = 64 above 8 lines,
//             else ceil(n * bits_per_key / (8 * lines)) (narrow lines)
//   line    = ((hash >> 32) * num_lines) >> 32
//   probe i = bit (product * line_bits) >> 32 of the line, product =
//             low32(hash) * multiplier[i] mod 2^32 (>> 23 for 512 bits);
//             bit b of a line is bit b % 8 of its byte b / 8
//   reader  = empty filter (trailer only, k = 0) matches nothing; an array
//             of whole 64-byte lines, or of L = ceil(bytes / 64) <= 8 equal
//             lines, is probed; any other trailer or size matches everything
#ifndef SSTFILTER_FUZZ_CACHE_LOCAL_REFERENCE_H_
#define SSTFILTER_FUZZ_CACHE_LOCAL_REFERENCE_H_

#include <xxhash.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sstfilter::fuzz {

// The format's 32 probe multipliers, written out here again so that a
// changed constant in filter/ is a finding.
inline constexpr uint32_t kRefMultipliers[32] = {
    0xd59430c5, 0xa3590871, 0xc5391b15, 0x8ecb5def, 0x7800a77f, 0x5b37c937, 0x40ad19c3,
    0x230bb809, 0x0ca58081, 0xebda172d, 0x7bebd78b, 0x5ed8e3dd, 0xe8aaf8a5, 0xc2a5b441,
    0x376af127, 0x2b723739, 0xbbc939b1, 0x8798eb3b, 0x18294ec5, 0x708b20df, 0x5d5c9531,
    0xd1298f03, 0x9e6be025, 0xf3aacbcb, 0xdc941c6b, 0x74ab681f, 0x1600a697, 0xa0084a87,
    0xef91ef9f, 0xffc9493d, 0xcb2bc359, 0x2d026d19};

inline uint64_t RefCacheLocalHash(std::string_view key) {
  return XXH3_64bits(key.data(), key.size());
}

struct RefShape {
  uint64_t lines = 0;
  uint64_t line_bytes = 64;
};

// The bit (line * line bits + position) of the array probe i of hash h
// sets, in a filter of that shape.
inline uint64_t RefProbeBit(uint64_t h, RefShape shape, int i) {
  const uint64_t line = ((h >> 32) * shape.lines) >> 32;
  const uint32_t seed = static_cast<uint32_t>(h);
  const uint32_t product = seed * kRefMultipliers[i];  // mod 2^32.
  const uint64_t line_bits = shape.line_bytes * 8;
  return line * line_bits + ((uint64_t{product} * line_bits) >> 32);
}

inline bool RefBit(std::string_view array, uint64_t bit) {
  return (static_cast<unsigned char>(array[bit / 8]) >> (bit % 8)) & 1;
}

enum class RefAnswer { kProbe, kNothing, kEverything };

// What the trailer of filter says, by the reader contract above; *shape and
// *k are set for kProbe.
inline RefAnswer RefParse(std::string_view f, RefShape* shape, int* k) {
  if (f.size() < 4) return RefAnswer::kEverything;
  const auto byte = [&](size_t from_end) {
    return static_cast<unsigned char>(f[f.size() - from_end]);
  };
  if (byte(1) != 67 || byte(4) != 1 || byte(3) != 6) return RefAnswer::kEverything;
  const size_t array_bytes = f.size() - 4;
  *k = byte(2);
  if (array_bytes == 0 && *k == 0) return RefAnswer::kNothing;
  if (*k < 1 || *k > 32 || array_bytes == 0) return RefAnswer::kEverything;
  if (array_bytes % 64 == 0) {
    *shape = {array_bytes / 64, 64};
  } else {
    const uint64_t lines = array_bytes / 64 + 1;
    if (lines > 8 || array_bytes % lines != 0) return RefAnswer::kEverything;
    *shape = {lines, array_bytes / lines};
  }
  if (shape->lines >= (uint64_t{1} << 32)) return RefAnswer::kEverything;
  return RefAnswer::kProbe;
}

inline bool RefMayMatchHash(std::string_view filter, uint64_t h) {
  RefShape shape;
  int k = 0;
  switch (RefParse(filter, &shape, &k)) {
    case RefAnswer::kNothing:
      return false;
    case RefAnswer::kEverything:
      return true;
    case RefAnswer::kProbe:
      break;
  }
  for (int i = 0; i < k; ++i) {
    if (!RefBit(filter, RefProbeBit(h, shape, i))) return false;
  }
  return true;
}

inline bool RefMayMatch(std::string_view filter, std::string_view key) {
  return RefMayMatchHash(filter, RefCacheLocalHash(key));
}

// Lines for n keys: ceil(n * bits_per_key / 512), at least 1; none for n = 0.
inline uint64_t RefNumLines(size_t n, double bits_per_key) {
  if (n == 0) return 0;
  const double lines = std::ceil(static_cast<double>(n) * bits_per_key / 512);
  return lines < 1 ? 1 : static_cast<uint64_t>(lines);
}

// The shape of a filter for n keys.
inline RefShape RefFilterShape(size_t n, double bits_per_key) {
  const uint64_t lines = RefNumLines(n, bits_per_key);
  if (lines == 0 || lines > 8) return {lines, 64};
  const double line_bytes =
      std::ceil(static_cast<double>(n) * bits_per_key / 8 / static_cast<double>(lines));
  return {lines, static_cast<uint64_t>(line_bytes)};
}

// The filter of the given hashes with k probes in lines of `shape` (0
// lines: the empty filter, whose k byte is 0).
inline std::string RefBuild(const std::vector<uint64_t>& hashes, RefShape shape, int k) {
  const uint64_t lines = shape.lines;
  std::string f(lines * shape.line_bytes, '\0');
  for (uint64_t h : hashes) {
    for (int i = 0; i < k; ++i) {
      const uint64_t bit = RefProbeBit(h, shape, i);
      f[bit / 8] = static_cast<char>(f[bit / 8] | (1 << (bit % 8)));
    }
  }
  f += {char{1}, char{6}, static_cast<char>(lines > 0 ? k : 0), char{67}};
  return f;
}

}  // namespace sstfilter::fuzz

#endif  // SSTFILTER_FUZZ_CACHE_LOCAL_REFERENCE_H_
