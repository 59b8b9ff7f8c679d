// One DB's live tables, counted into the runs of each column family as the
// running compactions will leave them (live_reach.h), and kept in step
// with the flushes and compactions the level census listener sees
// (census_listener.h): each event changes the counts of the tables it names,
// not the whole tree, so an event costs the same whatever the table count.
//
// Rebuild reads the tree afresh from RocksDB's metadata; it also measures
// each run's reach from the tables' key ranges, which the events do not
// carry (a run that appears between rebuilds counts as reached by every
// lookup). The listener rebuilds when an event names a table it does not
// know, and often enough to correct what events cannot say (files deleted
// outside compactions), but rarely enough that rebuilds stay a small share
// of the flush and compaction work.
#ifndef SSTFILTER_TABLE_CENSUS_CENSUS_TREE_H_
#define SSTFILTER_TABLE_CENSUS_CENSUS_TREE_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "filter/allocation/tree_runs.h"
#include "filter/allocation/tree_traffic.h"
#include "rocksdb/metadata.h"
#include "rocksdb/table_properties.h"
#include "table/census/live_reach.h"
#include "table/census/read_samples.h"

namespace sstfilter {

// What the census knows of a table it saw built (TableFileCreationInfo).
struct TableRecord {
  uint64_t entries = 0;
  uint64_t filter_bits = 0;
  // The keys and prefixes its filter holds (0: no filter): more than its
  // entries where a prefix extractor adds prefixes beside whole keys, fewer
  // where keys repeat. Its builder sized the filter for these.
  uint64_t filter_entries = 0;
  // Its filter's entries where it has a filter, else its entries: what its
  // bits a key are counted per, as the plan counts them.
  uint64_t KeysFiltered() const { return filter_entries > 0 ? filter_entries : entries; }
  // Its index and data blocks (BlockShape's parts); data_blocks 0: not read.
  uint64_t data_bytes = 0, data_blocks = 0;
  uint64_t index_bytes = 0, index_blocks = 0;
  // Its keys' mean user key bytes, and its partitioned index's top level
  // (0: a whole index), for the bytes of a partitioned filter's index
  // (filter/plan/partition_cut.h).
  double user_key_bytes = 0;
  uint64_t index_top_bytes = 0;
  // Whether its filter is sstfilter's (its filter_policy_name property).
  bool sstfilter_filter = false;
};

// The record of a table with properties `props`.
TableRecord RecordOf(const rocksdb::TableProperties& props);

// The keys a table's filter holds, by its properties (TableRecord::KeysFiltered):
// the census counts a table so, as its builder sized its filter for them.
inline uint64_t KeysFiltered(const rocksdb::TableProperties& props) {
  return props.num_filter_entries > 0 ? props.num_filter_entries : props.num_entries;
}

class CensusTree {
 public:
  // A live table as the census counts it.
  struct Table {
    std::string column_family;
    int level = 0;
    uint64_t entries = 0;     // Its filter's entries where known (KeysFiltered).
    bool bits_known = false;  // Its filter bits (from its TableRecord).
    uint64_t filter_bits = 0;
  };
  // A running compaction.
  struct Compaction {
    std::string column_family;
    int output_level = 0;
    std::vector<uint64_t> inputs;  // File numbers.
  };

  // Replaces everything by `files` (DB::GetLiveFilesMetaData) with the
  // `running` compactions (by job id). A table's entries are its
  // metadata's, or its record's where the metadata has none (RocksDB loads
  // table properties lazily when max_open_files is not -1), or else its
  // bytes at the column family's mean bytes per entry; its filter bits are
  // its record's, if any. `records` are by file number. With `samples`
  // (the tables' sampled reads, read_samples.h) and keys in bytewise
  // order, it also measures where lookups go (live_traffic.h).
  void Rebuild(const std::vector<rocksdb::LiveFileMetaData>& files,
               const std::map<int, Compaction>& running,
               const std::map<uint64_t, TableRecord>& records, bool bytewise,
               const ReadSamples* samples = nullptr);

  // Events. Each returns false, changing nothing, when it names a table
  // the tree does not hold (or already holds): the tree is out of step.
  // A flush's table; its entries are the column family's last flush's
  // (TreeRuns::last_flush_keys), kept across Rebuilds.
  bool AddTable(uint64_t number, Table table);
  bool StartCompaction(int job, Compaction compaction);
  // Its inputs leave the tree; `outputs` (file number, table) join it at
  // the output level. A trivial move's outputs are its inputs, moved.
  // A job the tree does not know is out of step; a failed one (ok false)
  // only ends (its inputs stay where they are).
  bool FinishCompaction(int job, bool ok, const std::vector<std::pair<uint64_t, Table>>& outputs);

  // The tables the rebuild loop is about to rewrite (rebuild_loop.h), by
  // file number: counted at their level but free, not fixed at the bits
  // they were built with (as a running compaction's inputs are), so that
  // each rewrite is sized for the plan, not for the debts of the tables
  // that wait their turn. Kept across Rebuilds until replaced.
  void SetPendingRewrites(std::set<uint64_t> pending);

  // The runs of `column_family` (empty if it has no table), with its
  // block shape (TreeRuns::blocks) from the records of the last Rebuild.
  TreeRuns Runs(const std::string& column_family) const;
  // Every column family's runs.
  std::map<std::string, TreeRuns> AllRuns() const;
  // The column family's live tables' mean bytes per entry at the last
  // Rebuild (over the tables whose metadata gave their entries); 0 if none
  // did.
  double BytesPerEntry(const std::string& column_family) const;
  // Whether some L0 table joined since the last Rebuild: its reach is not
  // measured (Runs gives it 1, every Get) until the next one reads its
  // key range.
  bool ReachUnmeasured() const;
  // Each live table's share of its column family's Gets, by file number, for
  // the column families whose traffic the last Rebuild knew (traffic_file.h).
  std::map<uint64_t, double> KnownShares() const;

 private:
  // One column family's runs, by where they are kept in step.
  struct Counts {
    std::map<uint64_t, RunCensus> l0_tables;  // By file number.
    RunCensus l0_output;                      // Compactions into L0.
    std::vector<RunCensus> levels;            // Index = level.
    TreeReach reach;
  };

  // Adds (sign +1) or removes (-1) a table's counts: at its level, or, as
  // a running compaction's input, free at `output_level` (-1: none).
  void Count(uint64_t number, const Table& table, int sign, int output_level);
  // A table joins the tree (a flush's, or a compaction's output).
  bool Insert(uint64_t number, Table table);

  std::map<uint64_t, Table> tables_;
  std::map<uint64_t, int> input_to_;  // Running inputs: file number -> output level.
  std::map<int, Compaction> running_;  // By job id.
  std::set<uint64_t> pending_;         // SetPendingRewrites'.
  std::map<std::string, Counts> counts_;
  std::map<std::string, std::shared_ptr<const TreeTraffic>> traffic_;  // At the last Rebuild.
  // By column family: the bytes and entries of the tables whose metadata
  // gave their entries, at the last Rebuild.
  struct Mean {
    double bytes = 0, entries = 0;
    uint64_t EntriesOf(uint64_t file_size) const;  // 0 if no entries.
  };
  std::map<std::string, Mean> mean_;
  // By column family: its live tables' records summed, at the last Rebuild.
  std::map<std::string, BlockShape> shape_;
  std::map<std::string, uint64_t> last_flush_;  // By column family: its entries.
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_CENSUS_TREE_H_
