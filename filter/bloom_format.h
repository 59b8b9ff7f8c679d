// The encodings of the Bloom policy family, and their names in options.
#ifndef SSTFILTER_FILTER_BLOOM_FORMAT_H_
#define SSTFILTER_FILTER_BLOOM_FORMAT_H_

#include <optional>
#include <string_view>

namespace sstfilter {

enum class BloomFormat {
  // Bit-exact with LevelDB's built-in Bloom filter (the default).
  kLevelDb,
  // One 64-byte cache line per key, 64-bit XXH3 hash (see cache_local_bloom.h).
  kCacheLocal,
};

// "leveldb" / "cache_local": the spelling used in option strings and flags.
std::string_view BloomFormatName(BloomFormat format);
std::optional<BloomFormat> ParseBloomFormat(std::string_view name);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_FORMAT_H_
