#include "filter/cache_model/traffic_popularity.h"

#include <vector>

namespace sstfilter {

KeyPopularity PopularityOf(const TreeTraffic& traffic) {
  if (!traffic.known()) return {};
  const std::vector<TableTraffic>* finest = nullptr;
  for (const std::vector<TableTraffic>& level : traffic.levels) {
    if (finest == nullptr || level.size() >= finest->size()) finest = &level;
  }
  if (finest == nullptr || finest->size() < kMinPopularityTables) return {};
  std::vector<KeyPopularity::Slice> slices;
  for (const TableTraffic& t : *finest) {
    const auto keys = static_cast<double>(t.range.keys);
    if (t.uniform > 0) slices.push_back({keys, keys * t.share / t.uniform});
  }
  return KeyPopularity(slices);
}

}  // namespace sstfilter
