// The 64-bit key hash of the cache-local, compact and banded encodings: XXH3 64-bit,
// seed 0, from Debian's libxxhash (libxxhash-dev). XXH_INLINE_ALL compiles
// the library's own code inline here, so short keys are hashed without a
// call.
//
// Part of their formats: each trailer's hash-kind byte names it, so changing
// it is a new hash kind, never a change to this function.
#ifndef SSTFILTER_FILTER_KEY_HASH64_H_
#define SSTFILTER_FILTER_KEY_HASH64_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

namespace sstfilter {

// Keys longer than kInlineHashBytes: the same XXH3, out of line.
uint64_t KeyHash64OutOfLine(std::string_view key);
inline constexpr size_t kInlineHashBytes = 32;

// Short keys are hashed inline; the code for longer ones stays out of the
// caller, whose every query would otherwise save and restore the registers
// that code needs (docs/results.md#avx2-only-cpus has the cost).
inline uint64_t KeyHash64(std::string_view key) {
  if (key.size() > kInlineHashBytes) return KeyHash64OutOfLine(key);
  return XXH3_64bits(key.data(), key.size());
}

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_KEY_HASH64_H_
