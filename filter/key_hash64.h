// The 64-bit key hash of the cache-local and compact encodings: XXH3 64-bit,
// seed 0, from Debian's libxxhash (libxxhash-dev). XXH_INLINE_ALL compiles
// the library's own code inline here, so short keys are hashed without a
// call.
//
// Part of both formats: each trailer's hash-kind byte names it, so changing
// it is a new hash kind, never a change to this function.
#ifndef SSTFILTER_FILTER_KEY_HASH64_H_
#define SSTFILTER_FILTER_KEY_HASH64_H_

#include <cstdint>
#include <string_view>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

namespace sstfilter {

inline uint64_t KeyHash64(std::string_view key) { return XXH3_64bits(key.data(), key.size()); }

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_KEY_HASH64_H_
