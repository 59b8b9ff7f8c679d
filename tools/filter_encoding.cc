#include "tools/filter_encoding.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "filter/bloom_math.h"
#include "filter/cache_local_bloom.h"
#include "filter/cache_local_math.h"
#include "filter/leveldb_bloom.h"

namespace sstfilter {

double FilterEncoding::ExpectedFpRate(double num_keys) const {
  switch (kind) {
    case Kind::kLevelDb: {
      // As LevelDbExpectedFpRate, but with the k and bits the filter really
      // has (small filters are padded to 64 bits, which changes both).
      return LevelDbFilterFpRate(num_keys, num_bits, num_probes);
    }
    case Kind::kCacheLocal:
      return BlockedBloomFpRate(num_keys / num_lines, num_probes);
    case Kind::kEmpty:
      return 0.0;
    case Kind::kMatchEverything:
      return 1.0;
  }
  return 1.0;
}

FilterEncoding DescribeFilterEncoding(std::string_view filter) {
  FilterEncoding e;
  if (filter.size() < 2) {
    e.kind = FilterEncoding::Kind::kEmpty;
    e.name = "empty (matches nothing)";
    return e;
  }
  // Other encodings claim their tag (a final byte > kLevelDbMaxProbes) here.
  if (IsCacheLocalBloomFilter(filter)) {
    const CacheLocalBloomReader reader(filter);
    switch (reader.kind()) {
      case CacheLocalBloomReader::Kind::kBloom:
        e.kind = FilterEncoding::Kind::kCacheLocal;
        e.num_probes = reader.num_probes();
        e.num_lines = reader.num_lines();
        e.num_bits = e.num_lines * 512;
        e.name = absl::StrFormat("cache_local k=%d", e.num_probes);
        return e;
      case CacheLocalBloomReader::Kind::kMatchNothing:
        e.kind = FilterEncoding::Kind::kEmpty;
        e.name = "cache_local, empty (matches nothing)";
        return e;
      case CacheLocalBloomReader::Kind::kMatchEverything:
        e.kind = FilterEncoding::Kind::kMatchEverything;
        e.name = "cache_local, damaged trailer (reads as may-match)";
        return e;
    }
  }
  const auto tag = static_cast<unsigned char>(filter.back());
  if (tag >= 1 && tag <= kLevelDbMaxProbes) {
    e.kind = FilterEncoding::Kind::kLevelDb;
    e.num_probes = tag;
    e.num_bits = static_cast<double>(filter.size() - 1) * 8;
    e.name = absl::StrFormat("leveldb k=%d", tag);
    return e;
  }
  e.kind = FilterEncoding::Kind::kMatchEverything;
  e.name = tag == 0 ? "damaged (k=0; reads as may-match)"
                    : absl::StrFormat("unknown tag 0x%02x (reads as may-match)", tag);
  return e;
}

}  // namespace sstfilter
