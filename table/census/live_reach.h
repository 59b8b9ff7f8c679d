// Each sorted run's reach (filter/allocation/run_reach.h), measured from a
// DB's live tables as the running compactions will leave them.
//
// While a compaction runs, its inputs are still live: read as they are,
// they would count twice, at their own level and again as what the output
// level receives. Here each input counts at its compaction's output level.
// The inputs' levels come from the live files by file number:
// CompactionJobInfo's input_file_infos[i].level is the index of the input's
// level in the compaction's list of inputs, not the level (RocksDB 7.8 to
// 11.x).
#ifndef SSTFILTER_TABLE_CENSUS_LIVE_REACH_H_
#define SSTFILTER_TABLE_CENSUS_LIVE_REACH_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "rocksdb/metadata.h"

namespace sstfilter {

// The running compactions' inputs: file number -> output level.
using RunningInputs = std::map<uint64_t, int>;

// Each run's reach, measured from the tables' key ranges: each L0 table's
// (by file number) and each level's (index = level; the inputs of running
// compactions count at their output level).
struct TreeReach {
  std::map<uint64_t, double> l0_tables;
  double l0_output = 1;  // What compactions into L0 write.
  std::vector<double> levels;
};

// The reach of every column family's runs in `files`
// (DB::GetLiveFilesMetaData), against all of its tables (TreeReaches); 1
// everywhere when `bytewise` is false or some run's ranges are not in
// bytewise order. `entries` gives a table's entries by file number.
std::map<std::string, TreeReach> MeasureReach(const std::vector<rocksdb::LiveFileMetaData>& files,
                                              const std::map<std::string, RunningInputs>& running,
                                              const std::map<uint64_t, uint64_t>& entries,
                                              bool bytewise);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_LIVE_REACH_H_
