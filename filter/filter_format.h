// Which encoding new filters are written in (the `format` option), and its
// spelling in option strings and flags. The encodings themselves are listed
// in encodings.h; this header stays small for the options that name them.
#ifndef SSTFILTER_FILTER_FILTER_FORMAT_H_
#define SSTFILTER_FILTER_FILTER_FORMAT_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sstfilter {

// Values are positions in the Encodings list (encodings.h checks it).
enum class FilterFormat {
  kLevelDb,     // Bit-exact with LevelDB's built-in Bloom filter (default).
  kCacheLocal,  // One 64-byte cache line per key, 64-bit XXH3 hash.
  kCompact,     // 4-wise binary fuse: a Bloom filter's accuracy in ~27% fewer bits.
};
inline constexpr FilterFormat kDefaultFormat = FilterFormat::kLevelDb;

// Every format, in order.
const std::vector<FilterFormat>& AllFormats();
// Whether format is one of AllFormats() (a cast integer may not be).
bool IsKnownFormat(FilterFormat format);

// "leveldb", "cache_local", "compact": the spelling in option strings and flags.
// REQUIRES: IsKnownFormat(format).
std::string_view FormatName(FilterFormat format);
std::optional<FilterFormat> ParseFormatName(std::string_view name);
// "'leveldb' or 'cache_local'": the names, for messages.
std::string FormatNameList();

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_FILTER_FORMAT_H_
