// A column family's sorted runs as they will be once the running
// compactions are done: what the per-level policy allocates over
// (level_accuracy.h), kept by the level census (census_tree.h,
// level_census.h).
//
// While a compaction runs, its inputs are still live: read as they are,
// they would count twice, at their own level and again as what the output
// level receives. Here each input leaves its run and joins the output
// level's. The inputs' levels come from the live files by file number:
// CompactionJobInfo's input_file_infos[i].level is the index of the input's
// level in the compaction's list of inputs, not the level (RocksDB 7.8 to
// 11.x). No entry is assumed dropped by the merge: an output level counts
// every input entry (an upper bound where keys are overwritten or deleted).
#ifndef SSTFILTER_TABLE_ROCKSDB_FUTURE_TREE_H_
#define SSTFILTER_TABLE_ROCKSDB_FUTURE_TREE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/metadata.h"

namespace sstfilter {

// One sorted run.
struct RunCensus {
  uint64_t keys = 0;    // Its entries once the running compactions are done.
  uint64_t tables = 0;  // The tables holding them now (inputs: at the output).
  // Of those, the entries of its tables that no running compaction
  // rewrites and whose filter bits are known, and those bits as built. The
  // rest of the run is being written now (or its filters are unknown: a
  // table from before the census, taken as sized by the allocation).
  uint64_t fixed_keys = 0;
  uint64_t fixed_filter_bits = 0;
  // Share of absent-key lookups that reach it (filter/run_reach.h; 1 where
  // the keys are not in bytewise order).
  double reach = 1;
};

// What leveled compaction holds each level to, from a column family's
// options (steady_tree.h).
struct LevelTargets {
  bool leveled = false;  // Leveled compaction; false: no targets.
  // L0's tables at steady state (half level0_file_num_compaction_trigger);
  // 0: no cap.
  int l0_tables = 0;
  // level_compaction_dynamic_level_bytes: each level's target is the
  // deepest level's entries over multiplier^(its distance from it); else
  // L1's is base_entries and each level's below multiplier times the last.
  bool dynamic = false;
  double multiplier = 10;
  double base_entries = 0;  // max_bytes_for_level_base in entries; 0: no cap.
};

struct TreeTraffic;  // tree_traffic.h

// One column family's runs.
struct TreeRuns {
  std::vector<RunCensus> l0_tables;  // Each L0 table, or L0 compaction output, a run.
  std::vector<RunCensus> levels;     // One run per level (index = level; [0] unused).
  LevelTargets targets;
  // Where its lookups went, as of the census's last reading; nullptr if
  // not read (or keys not in bytewise order).
  std::shared_ptr<const TreeTraffic> traffic;
};

// The deepest level holding entries (0 if only L0 does).
int DeepestLevel(const TreeRuns& runs);

// What the census knows of a table it saw built (TableFileCreationInfo).
struct TableRecord {
  uint64_t entries = 0;
  uint64_t filter_bits = 0;
};

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
// (DB::GetLiveFilesMetaData), against all of its tables (RunReaches); 1
// everywhere when `bytewise` is false or some run's ranges are not in
// bytewise order. `entries` gives a table's entries by file number.
std::map<std::string, TreeReach> MeasureReach(const std::vector<rocksdb::LiveFileMetaData>& files,
                                              const std::map<std::string, RunningInputs>& running,
                                              const std::map<uint64_t, uint64_t>& entries,
                                              bool bytewise);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_FUTURE_TREE_H_
