// Where a column family's lookups go, by table, for access-aware
// allocation (optimize_levels:access_aware; level_accuracy.h): each live
// table's share of the Gets (read_samples.h), by the run it is in, and the
// share a new table would see from its key range.
//
// A table being written has seen no lookups: it takes those of the key range
// it holds, as the live tables there saw them (a compaction's output, its
// inputs'; a flush's, the tree's). A range's share at one level is what that
// level's tables saw of it (each table's share times the part of its range
// inside, keys taken as spread evenly); the range's share is the one of the
// level that has seen the most of it (the most lookups expected there were
// they spread like the keys): a young level's tables, shares still close to
// their uniform ones, would make a cold range look warm.
#ifndef SSTFILTER_TABLE_ROCKSDB_TREE_TRAFFIC_H_
#define SSTFILTER_TABLE_ROCKSDB_TREE_TRAFFIC_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "filter/run_reach.h"
#include "rocksdb/metadata.h"
#include "table/rocksdb/future_tree.h"
#include "table/rocksdb/read_samples.h"

namespace sstfilter {

// One live table's lookups.
struct TableTraffic {
  uint64_t file_number = 0;
  KeyRange range;      // Its user keys and entries.
  double share = 0;    // Of the column family's Gets that consult it.
  double uniform = 0;  // The same, were Gets spread like the keys.
  // The sampled Gets it would have seen were they spread like the keys:
  // how much its share rests on (exposure x uniform).
  double evidence = 0;
};

// Below this many sampled Gets (about 64k Gets) a column family's traffic
// is not known: access-aware allocation is then static allocation.
inline constexpr double kMinTrafficGets = 64;

struct TreeTraffic {
  double gets = 0;  // The decayed sampled Gets behind the shares.
  std::vector<TableTraffic> l0;                   // L0 tables.
  std::vector<std::vector<TableTraffic>> levels;  // Index = level; by smallest key.

  bool known() const { return gets >= kMinTrafficGets; }
  // The share of Gets a table holding the keys [lo, hi] would see: what the
  // level with the most evidence there saw of that range; 0 if no table
  // holds any of it.
  double ShareOf(const std::string& lo, const std::string& hi) const;
};

// Each column family's traffic from the live tables `files` and their
// counts. A table's uniform share is its run's reach (`reach`, by column
// family; 1 where not given) times its part of its level's entries
// (`entries`, by file number; an L0 table is a run of its own); tables
// with no entries known are left out.
std::map<std::string, TreeTraffic> MeasureTraffic(
    const std::vector<rocksdb::LiveFileMetaData>& files, const ReadSamples& samples,
    const std::map<uint64_t, uint64_t>& entries, const std::map<std::string, TreeReach>& reach);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_TREE_TRAFFIC_H_
