// Where a column family's lookups go (filter/allocation/tree_traffic.h),
// measured from a DB's live tables and RocksDB's sampled reads
// (read_samples.h): each table's share of the Gets, shrunk toward the
// share its level's spread fits (filter/allocation/share_of_gets.h).
#ifndef SSTFILTER_TABLE_CENSUS_LIVE_TRAFFIC_H_
#define SSTFILTER_TABLE_CENSUS_LIVE_TRAFFIC_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "filter/allocation/tree_traffic.h"
#include "rocksdb/metadata.h"
#include "table/census/live_reach.h"
#include "table/census/read_samples.h"

namespace sstfilter {

// Each column family's traffic from the live tables `files` and their
// counts. A table's uniform share is UniformShare of its run's reach
// (`reach`, by column family; 1 where not given) and its part of its
// level's entries (`entries`, by file number; an L0 table is a run of its
// own); tables with no entries known are left out.
std::map<std::string, TreeTraffic> MeasureTraffic(
    const std::vector<rocksdb::LiveFileMetaData>& files, const ReadSamples& samples,
    const std::map<uint64_t, uint64_t>& entries, const std::map<std::string, TreeReach>& reach);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_LIVE_TRAFFIC_H_
