// What a filter block written by sstfilter's policy holds: which encoding,
// its parameters, and the FP rate theory expects of it for n keys. Used by
// the SST inspector (sst_main.cc).
#ifndef SSTFILTER_TOOLS_FILTER_ENCODING_H_
#define SSTFILTER_TOOLS_FILTER_ENCODING_H_

#include <string>
#include <string_view>

namespace sstfilter {

struct FilterEncoding {
  enum class Kind {
    kLevelDb,          // LevelDB-compatible bit array + k byte.
    kCacheLocal,       // 64-byte lines, XXH3 (filter/cache_local_bloom.h).
    kEmpty,            // Fewer than 2 bytes: matches nothing.
    kMatchEverything,  // Reserved or damaged trailer: the reader fails open.
  };
  Kind kind = Kind::kMatchEverything;
  // "leveldb k=6", "cache_local k=6", "empty", "unknown tag 0x..". Equal
  // for filters of one encoding and k, so partitions can be grouped by it.
  std::string name;
  int num_probes = 0;
  double num_bits = 0;  // Bits of the probed array.
  double num_lines = 0;  // kCacheLocal: 512-bit lines.

  // FP rate expected for a filter of this encoding holding num_keys keys.
  double ExpectedFpRate(double num_keys) const;
};

// Never fails: bytes no encoding claims are described as such.
FilterEncoding DescribeFilterEncoding(std::string_view filter);

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_FILTER_ENCODING_H_
