// The hash of the cache-local encoding: XXH3 64-bit, seed 0, from Debian's
// libxxhash (libxxhash-dev). XXH_INLINE_ALL compiles the library's own code
// inline here, so short keys are hashed without a call.
//
// Part of the format: the trailer's hash-kind byte kCacheLocalHashXxh3 names it.
#ifndef SSTFILTER_FILTER_CACHE_LOCAL_HASH_H_
#define SSTFILTER_FILTER_CACHE_LOCAL_HASH_H_

#include <cstdint>
#include <string_view>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

namespace sstfilter::cache_local {

inline uint64_t HashKey(std::string_view key) {
  return XXH3_64bits(key.data(), key.size());
}

}  // namespace sstfilter::cache_local

#endif  // SSTFILTER_FILTER_CACHE_LOCAL_HASH_H_
