#include "filter/bloom_format.h"

namespace sstfilter {

std::string_view BloomFormatName(BloomFormat format) {
  switch (format) {
    case BloomFormat::kLevelDb:
      return "leveldb";
    case BloomFormat::kCacheLocal:
      return "cache_local";
  }
  return "unknown";
}

std::optional<BloomFormat> ParseBloomFormat(std::string_view name) {
  if (name == "leveldb") return BloomFormat::kLevelDb;
  if (name == "cache_local") return BloomFormat::kCacheLocal;
  return std::nullopt;
}

}  // namespace sstfilter
