// Where a column family's lookups go, by table, for access-aware
// allocation (optimize_levels:access_aware; table_fp_target.h): each live
// table's share of the Gets, by the run it is in, and the share a new
// table would see from its key range. The census measures it
// (table/census/live_traffic.h); the advisor reads it from the traffic
// file.
//
// A table being written has seen no lookups: it takes those of the key range
// it holds, as the live tables there saw them (a compaction's output, its
// inputs'; a flush's, the tree's). A range's share at one level is what that
// level's tables saw of it (each table's share times the part of its range
// inside, keys taken as spread evenly); the range's share is the one of the
// level that has seen the most of it (the most lookups expected there were
// they spread like the keys): a young level's tables, shares still close to
// their uniform ones, would make a cold range look warm.
#ifndef SSTFILTER_FILTER_ALLOCATION_TREE_TRAFFIC_H_
#define SSTFILTER_FILTER_ALLOCATION_TREE_TRAFFIC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "filter/allocation/run_reach.h"

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
  // The sampled Gets it drew (decayed as its share's counts are; 0 where
  // not known): how closely its share is known.
  double sampled = 0;
};

// Below this many sampled Gets (about 64k Gets) a column family's traffic
// is not known: access-aware allocation is then static allocation.
inline constexpr double kMinTrafficGets = 64;

// A table that has lived through less than this share of its column
// family's counted Gets (TreeTraffic::gets: a compaction's output born
// since most of them were counted) has its share from fewer Gets than the
// tables beside it, shrunk toward its level's mean the more: a plan by it
// would undo what its range drew when the table was built.
inline constexpr double kMinLivedShare = 0.25;

struct TreeTraffic {
  double gets = 0;                                // The decayed sampled Gets behind the shares.
  std::vector<TableTraffic> l0;                   // L0 tables.
  std::vector<std::vector<TableTraffic>> levels;  // Index = level; by smallest key.

  bool known() const { return gets >= kMinTrafficGets; }
  // The share of Gets a table holding the keys [lo, hi] would see: what the
  // level with the most evidence there saw of that range; 0 if no table
  // holds any of it.
  double ShareOf(const std::string& lo, const std::string& hi) const;
  // The share of Gets the tables of `level` (0: L0) saw of the keys [lo,
  // hi]: a live table rewritten in place at that level takes its own (a
  // wider table of another level would spread a hot range's Gets over its
  // whole span).
  double ShareAt(int level, const std::string& lo, const std::string& hi) const;
  // The share of `gets` the tables of `level` (0: L0) holding the keys [lo,
  // hi] lived through, each weighed by its part of the range's uniform
  // share; 0 if none holds any of it. Above 1 where a reopened DB's
  // carried counts (ReadSamples::Carry) overlap its own.
  double LivedAt(int level, const std::string& lo, const std::string& hi) const;
  // The sampled Gets the tables of `level` holding the keys [lo, hi] drew
  // of that range (each table's by its part of the range): what ShareAt's
  // share rests on; 0 if none holds any of it or none is known.
  double SampledAt(int level, const std::string& lo, const std::string& hi) const;
  // The L0 table of that file number; null if none.
  const TableTraffic* L0Table(uint64_t file_number) const;
  // The share of `gets` `table` lived through (as LivedAt, for one table).
  double Lived(const TableTraffic& table) const;
};

// A table's share of the Gets were they spread like the keys: its run's
// reach times its part of the run's entries (an L0 table is a run of its
// own); 0 if the run has none. The census and the advisor both weigh a
// table by it where they have no lookups of its own.
double UniformShare(double run_reach, double table_keys, double run_keys);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_TREE_TRAFFIC_H_
