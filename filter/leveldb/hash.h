// The 32-bit Murmur-like hash that LevelDB's Bloom filter uses.
//
// Contract: LevelDbBloomHash(key) equals LevelDB's Hash(key.data(), key.size(),
// 0xbc9f1d34) for every input, so filters we build are bit-exact with
// LevelDB's. Tail bytes are read as unsigned, as LevelDB 1.18 and later do.
#ifndef SSTFILTER_FILTER_LEVELDB_HASH_H_
#define SSTFILTER_FILTER_LEVELDB_HASH_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace sstfilter {

inline uint32_t LevelDbHash(const char* data, size_t n, uint32_t seed) {
  constexpr uint32_t kMul = 0xc6a4a793;  // LevelDB's multiplier.
  const auto* p = reinterpret_cast<const unsigned char*>(data);
  const unsigned char* const limit = p + n;
  // Length is mixed in modulo 2^32, exactly as LevelDB does.
  uint32_t h = seed ^ (static_cast<uint32_t>(n) * kMul);
  for (; limit - p >= 4; p += 4) {
    uint32_t w;
    std::memcpy(&w, p, 4);  // Little-endian hosts only (checked in CMake).
    h += w;
    h *= kMul;
    h ^= (h >> 16);
  }
  switch (limit - p) {
    case 3:
      h += static_cast<uint32_t>(p[2]) << 16;
      [[fallthrough]];
    case 2:
      h += static_cast<uint32_t>(p[1]) << 8;
      [[fallthrough]];
    case 1:
      h += p[0];
      h *= kMul;
      h ^= (h >> 24);
      break;
  }
  return h;
}

// The seed LevelDB's Bloom filter hashes keys with.
inline constexpr uint32_t kLevelDbBloomSeed = 0xbc9f1d34;

inline uint32_t LevelDbBloomHash(std::string_view key) {
  return LevelDbHash(key.data(), key.size(), kLevelDbBloomSeed);
}

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_LEVELDB_HASH_H_
