// How the Gets spread over the key space by the census's sampled reads:
// the cache model's request rates (cache_reads.h) from a tree's traffic
// (filter/allocation/tree_traffic.h).
#ifndef SSTFILTER_FILTER_CACHE_MODEL_TRAFFIC_POPULARITY_H_
#define SSTFILTER_FILTER_CACHE_MODEL_TRAFFIC_POPULARITY_H_

#include <cstddef>

#include "filter/allocation/tree_traffic.h"
#include "filter/cache_model/key_popularity.h"

namespace sstfilter {

// How the Gets spread over the key space (the cache model's request rates,
// cache_reads.h), from the level with the most tables (the finest
// slices; of two alike, the deeper): each of its tables a slice as wide as
// its entries, drawing its share over its uniform share. Uniform where the
// traffic is not known, or no level has kMinPopularityTables tables.
// Skew inside a table is not seen: a table's hot range counts as spread
// over it.
inline constexpr size_t kMinPopularityTables = 4;
KeyPopularity PopularityOf(const TreeTraffic& traffic);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_CACHE_MODEL_TRAFFIC_POPULARITY_H_
