// The traffic summary the level census leaves in a DB's directory: for the
// advisor (sstfilter_sst --db), since RocksDB's sampled reads live in the
// process that serves the Gets, which a reader of the directory (a
// secondary or read-only instance, another process) cannot see; and for
// the census of the DB's next instance, since RocksDB starts its sampled
// reads and statistics at zero when the DB reopens.
//
// A text file, kTrafficFileName, rewritten whole (a temporary file renamed
// over it) at a census reading while the census knows where a column
// family's lookups go or how many of the DB's Gets find their key: at most
// every kTrafficFileInterval, or sooner when the hit share changed or the
// tables' shares were first known:
//   sstfilter traffic 4
//   db <the DB's identity (DB::GetDbIdentity)>
//   hit_share <share of the Gets reaching the tables that found their key>
//   move <level> fewer|more <seconds since the Unix epoch>
//   ...
//   <file number> <share of its column family's Gets> <exposure>
//   ...
// the hit_share line only where the DB's statistics say it
// (observed_hit_share.h); a move line for each level whose filters the
// rebuild loop moved (to fewer bits per key or more) within the last
// kPaybackHorizon, when it last rewrote one of its tables (so that the
// next instance carries the move through, and does not move it back,
// census_listener.h); a table's exposure is the sampled Gets of its
// column family while it lived, decayed (read_samples.h): how much its
// share is worth. Version 3 (written until 2026-12-04) has no move lines;
// version 2 (until 2026-11-28) no db line and no exposures either; version
// 1 (before) no hit_share line either; all are read.
// RocksDB ignores a file whose name it does not know; deleting it only
// loses the summary until the next one. The census writes and reads it as
// dir_file.h says (a fresh name renamed over it; a regular file of at most
// kMaxTrafficFileBytes), on its own thread (file_worker.h).
#ifndef SSTFILTER_TABLE_CENSUS_TRAFFIC_FILE_H_
#define SSTFILTER_TABLE_CENSUS_TRAFFIC_FILE_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace sstfilter {

inline constexpr char kTrafficFileName[] = "sstfilter-traffic";
inline constexpr std::chrono::seconds kTrafficFileInterval{10};
// At most this many tables' lines are written (those with the largest
// exposures): a line is at most 42 bytes, so a file the census wrote is
// under 4.2 MB; one larger than kMaxTrafficFileBytes is not read (it names
// tables the census never wrote: taking it up would cost more than it is
// worth).
inline constexpr size_t kMaxTrafficTables = 100000;
inline constexpr size_t kMaxTrafficFileBytes = size_t{8} << 20;

// Each table's share of its column family's Gets, by file number.
using TableShares = std::map<uint64_t, double>;

// Which way the rebuild loop last moved a level's filters, and when.
struct LevelMove {
  bool fewer_bits = false;
  int64_t unix_seconds = 0;
};
inline bool operator==(const LevelMove& a, const LevelMove& b) {
  return a.fewer_bits == b.fewer_bits && a.unix_seconds == b.unix_seconds;
}

struct TrafficSummary {
  TableShares tables;
  std::optional<double> hit_share;  // The DB's, where its statistics say it.
  std::string db_identity;          // Empty: not said (before version 3).
  std::map<uint64_t, double> exposures;  // By file number; empty before version 3.
  std::map<int, LevelMove> level_moves;  // By level; empty before version 4.
  int version = 4;                       // The version read; FormatTrafficFile writes the newest.
};

// The newest version's text; of the tables, the kMaxTrafficTables with the
// largest exposures.
std::string FormatTrafficFile(const TrafficSummary& summary);

// The summary a FormatTrafficFile text (of any version) holds;
// InvalidArgument naming the line that is not one, quoted as printable
// text (a damaged or foreign file), or a last line cut short.
absl::StatusOr<TrafficSummary> ParseTrafficFile(std::string_view text);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_TRAFFIC_FILE_H_
