// A level's run split by the lookups its tables see (access-aware
// allocation, table_fp_target.h): the allocation gives each part its own FP
// (p = mu * keys / (c * lookups)), so the part of a level that Gets hit
// often gets more bits per key than the part they rarely reach.
//
// Tables whose lookups per entry are within a factor kPartRatio of each
// other form one part: their FP targets would differ by less than that
// factor (under half a bit per key of a Bloom filter), and the allocation's
// cost grows with the parts, not the tables.
#ifndef SSTFILTER_FILTER_ALLOCATION_TRAFFIC_PARTS_H_
#define SSTFILTER_FILTER_ALLOCATION_TRAFFIC_PARTS_H_

#include <vector>

#include "filter/allocation/run_allocation.h"
#include "filter/allocation/tree_traffic.h"

namespace sstfilter {

inline constexpr double kPartRatio = 1.4142135623730951;  // sqrt(2)

// `run` (a level's model: its keys, fixed part and reach as the census
// counts them) in parts, one per kPartRatio band of its `tables`' lookups
// per entry: each part's keys and fixed part are the band's share of the
// tables' entries, its reach their lookups, per entry as the tables saw
// them. `run` alone when `tables` is empty or holds no entries.
std::vector<RunModel> SplitByTraffic(const RunModel& run, const std::vector<TableTraffic>& tables);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_TRAFFIC_PARTS_H_
