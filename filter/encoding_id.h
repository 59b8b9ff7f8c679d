// Which encoding new filters are written in (FilterOptions::encoding; the
// key `format` in RocksDB's OPTIONS files), and its spelling in option
// strings and flags. The encodings themselves are listed in encodings.h;
// this header stays small for the options that name them.
#ifndef SSTFILTER_FILTER_ENCODING_ID_H_
#define SSTFILTER_FILTER_ENCODING_ID_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sstfilter {

// Values are positions in the Encodings list; encodings.h checks that each
// entry carries its own and that every value but kCount has an entry.
enum class EncodingId {
  kLevelDb,     // Bit-exact with LevelDB's built-in Bloom filter (default).
  kCacheLocal,  // One 64-byte cache line per key, 64-bit XXH3 hash.
  kCompact,     // 4-wise binary fuse: a Bloom filter's accuracy in fewer bits.
  kBanded,      // Bumped Ribbon in 64-slot bands: as small, one random access a key.
  kCount,       // Not an encoding: how many there are.
};
// LevelDB's bytes by default, so that the policy can stand in for LevelDB's
// built-in one (and the reverse) without changing a filter a reader uses.
inline constexpr EncodingId kDefaultEncoding = EncodingId::kLevelDb;

// Every encoding, in order.
const std::vector<EncodingId>& AllEncodingIds();
// Whether `encoding` is one of AllEncodingIds() (a cast integer may not be).
bool IsKnownEncoding(EncodingId encoding);

// Its name (EncodingInfo::name): the spelling in option strings and flags.
// REQUIRES: IsKnownEncoding(encoding).
std::string_view EncodingName(EncodingId encoding);
std::optional<EncodingId> ParseEncodingName(std::string_view name);
// "'leveldb', 'cache_local', ... or 'banded'": the names, for messages.
std::string EncodingNameList();

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ENCODING_ID_H_
