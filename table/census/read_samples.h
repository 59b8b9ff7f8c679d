// The lookups each live table has seen lately, from RocksDB's sampled reads
// (SstFileMetaData::num_reads_sampled): a Get picked by RocksDB's sampling
// (one in kSampleEvery) adds kSampleEvery to the count of every table whose
// key range it consults, before the table's filter is checked, in RocksDB
// 7.8 to 11.x. The counts live in memory only (a reopened DB starts them at
// zero) and only ever grow while the table lives.
//
// Each reading of the counts adds what each table gained since the last one
// ("samples", in sampled Gets) and the sampled Gets the whole column family
// saw meanwhile ("exposure": what the table could have seen), both decayed
// by the column family's Gets since (kDecayGets), so that the shares follow
// traffic that moves. A table's share of Gets is then samples / exposure,
// shrunk toward its share under uniform traffic while it has seen few
// (ShareOfGets, filter/allocation/share_of_gets.h). No clock: decay is counted in Gets, so a DB read slowly
// keeps a long memory and a busy one a short one.
#ifndef SSTFILTER_TABLE_CENSUS_READ_SAMPLES_H_
#define SSTFILTER_TABLE_CENSUS_READ_SAMPLES_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "filter/allocation/share_of_gets.h"
#include "rocksdb/metadata.h"

namespace sstfilter {

// RocksDB's sampling rate of file reads (monitoring/file_read_sample.h).
inline constexpr double kSampleEvery = 1024;

// A column family's counts decay by e over this many sampled Gets (about
// two million Gets).
inline constexpr double kDecayGets = 2048;

// Each column family's Gets are also counted in windows of at least this
// many sampled Gets. Where a window drew one of its levels' tables in
// other proportions than the counts before it (TrafficMoved,
// filter/allocation/traffic_moved.h: the hot ranges moved), what was
// counted before the window is kept at kKeptOnMove of its weight: the
// plan follows the Gets of now rather than a blend with a workload gone.
inline constexpr double kMoveWindowGets = 256;
inline constexpr double kKeptOnMove = 0.1;
// A table is tested only if it lived through the window and through this
// share of the decayed Gets before it (its count before the window is
// taken at the column family's Gets: a table born since holds fewer
// counts for its share than the others), and only if its counts are all
// its own: not a rewrite's heir (its part of its parent's samples is by
// entries, not by Gets) nor carried from a traffic file after the first
// reading. The window after a move is not tested: what it is compared
// with still holds the old workload's remainder.
inline constexpr double kMoveTestedExposure = 0.9;

class ReadSamples {
 public:
  // Adds a reading of the live tables' counts. The first reading counts
  // all they hold: RocksDB starts every table's count at zero when the DB
  // opens, so it holds the Gets since then (as many for every table, lived
  // all along). Later, `born_share` gives, for a table born since the last
  // reading (by file number), the share of the Gets between the readings
  // it lived through (born_share.h; its exposure is that share of the
  // column family's Gets); a
  // table neither in the last reading nor there is only counted from now
  // (its counts so far have no known window: an ingested table). A column
  // family's Gets between two readings are the most its tables of one level
  // (or one L0 table) gained: a Get consults at most one table per level,
  // and an absent key's Get every level whose range holds it.
  void Update(const std::vector<rocksdb::LiveFileMetaData>& files,
              const std::map<uint64_t, double>& born_share);

  // Takes up the counts a reopened DB's last instance left (`shares` and
  // `exposures`, by file number: its traffic file, traffic_file.h) for
  // each of `files` named there, as if the table had seen its exposure's
  // sampled Gets at its share, beside what this instance counted so far
  // (the file is read on the census's own thread: it may come after the
  // first reading); each column family's Gets are at least the most any
  // of its tables saw. Later Updates add the new Gets, and the counts then
  // decay as counts of its own would.
  void Carry(const std::vector<rocksdb::LiveFileMetaData>& files,
             const std::map<uint64_t, double>& shares,
             const std::map<uint64_t, double>& exposures);

  // Table `from` was rewritten as `to` (by file number, each with its
  // part of `from`'s entries) at its level, its keys unchanged (the rebuild
  // loop's rewrite): the Gets its range draws are the same, so each of `to`
  // starts from its part of `from`'s samples and all of its exposure, not
  // from none (a share shrunk toward its uniform one would size the next
  // plan of a hot range as if it were cold): at the next reading, or now
  // where a reading since the rewrite took it for a new table (`from` is
  // then found among the tables that reading no longer saw).
  void Rewritten(uint64_t from, const std::map<uint64_t, double>& to);

  // The counts of the live tables at the last reading, by file number.
  const std::map<uint64_t, TableSamples>& tables() const { return tables_; }
  // The column family's decayed sampled Gets (0 if none seen).
  double Gets(const std::string& column_family) const;
  // How many times a window told the column family's Gets had moved.
  int Moves(const std::string& column_family) const;
  // The same, by column family.
  const std::map<std::string, int>& Moves() const { return moves_; }

 private:
  // Closes each column family's window that holds kMoveWindowGets; where
  // its Gets moved, keeps kKeptOnMove of what came before it.
  void CloseWindows(const std::vector<rocksdb::LiveFileMetaData>& files);
  bool MovedIn(const std::string& column_family,
               const std::vector<rocksdb::LiveFileMetaData>& files) const;

  bool read_ = false;  // Whether a reading was added.
  std::map<uint64_t, TableSamples> tables_;
  std::map<uint64_t, uint64_t> last_reads_;  // num_reads_sampled at the last reading.
  std::map<std::string, double> gets_;       // By column family, decayed.
  std::map<uint64_t, TableSamples> heirs_;   // Rewritten's, until the next reading.
  // The tables the last reading no longer saw, their counts as that
  // reading would have left them live (decayed, cut on a move), by column
  // family; and each live table's column family.
  std::map<std::string, std::map<uint64_t, TableSamples>> gone_;
  std::map<uint64_t, std::string> families_;
  // The open windows: each table's part of tables_ and each column
  // family's of gets_ counted since its window opened, the tables tested
  // at its end (live when it opened), those never tested (counts not all
  // their own), and the moves told.
  std::map<uint64_t, TableSamples> window_;
  std::map<std::string, double> window_gets_;
  std::set<uint64_t> window_members_;
  std::set<uint64_t> untested_;
  std::map<std::string, int> moves_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_READ_SAMPLES_H_
