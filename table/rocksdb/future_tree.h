// A column family's sorted runs as they will be once the running
// compactions are done: what the per-level policy allocates over
// (level_accuracy.h), built from RocksDB's metadata by the level census
// (level_census.h).
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
#include <string>
#include <vector>

#include "rocksdb/listener.h"
#include "rocksdb/metadata.h"

namespace sstfilter {

// One sorted run.
struct RunCensus {
  uint64_t keys = 0;  // Its entries once the running compactions are done.
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

// One column family's runs.
struct TreeRuns {
  std::vector<RunCensus> l0_tables;  // Each L0 table, or L0 compaction output, a run.
  std::vector<RunCensus> levels;     // One run per level (index = level; [0] unused).
  uint64_t version = 0;              // Set by the census when published.
};

// What the census knows of a table it saw built (TableFileCreationInfo).
struct TableRecord {
  uint64_t entries = 0;
  uint64_t filter_bits = 0;
};

// The running compactions' inputs: file number -> output level.
using RunningInputs = std::map<uint64_t, int>;

// The runs of every column family in `files` (DB::GetLiveFilesMetaData),
// with the inputs of the running compactions (`running`, by column family)
// moved to their output levels. A table's entries are its metadata's, or
// its record's where the metadata has none (RocksDB loads table
// properties lazily when max_open_files is not -1), or else its bytes at
// the column family's mean bytes per entry. `records` are by file number.
std::map<std::string, TreeRuns> FutureTrees(
    const std::vector<rocksdb::LiveFileMetaData>& files,
    const std::map<std::string, RunningInputs>& running,
    const std::map<uint64_t, TableRecord>& records, bool bytewise);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_FUTURE_TREE_H_
