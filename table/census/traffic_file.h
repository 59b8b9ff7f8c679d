// The traffic summary the level census leaves in a DB's directory for the
// advisor (sstfilter_sst --db): RocksDB's sampled reads live in the
// process that serves the Gets, which a reader of the directory (a
// secondary or read-only instance, another process) cannot see.
//
// A text file, kTrafficFileName, rewritten whole (a temporary file renamed
// over it) at most every kTrafficFileInterval while the census knows where
// a column family's lookups go or how many of the DB's Gets find their key:
//   sstfilter traffic 2
//   hit_share <share of the Gets reaching the tables that found their key>
//   <file number> <share of its column family's Gets>
//   ...
// the hit_share line only where the DB's statistics say it
// (observed_hit_share.h). Version 1 (written before 2026-11-28) has no
// hit_share line; it is read as well. RocksDB ignores a file whose name it
// does not know; deleting it only loses the summary until the next one.
#ifndef SSTFILTER_TABLE_CENSUS_TRAFFIC_FILE_H_
#define SSTFILTER_TABLE_CENSUS_TRAFFIC_FILE_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace sstfilter {

inline constexpr char kTrafficFileName[] = "sstfilter-traffic";
inline constexpr std::chrono::seconds kTrafficFileInterval{10};

// Each table's share of its column family's Gets, by file number.
using TableShares = std::map<uint64_t, double>;

struct TrafficSummary {
  TableShares tables;
  std::optional<double> hit_share;  // The DB's, where its statistics say it.
};

std::string FormatTrafficFile(const TrafficSummary& summary);

// The summary a FormatTrafficFile text (of either version) holds;
// InvalidArgument naming the line that is not one (a damaged or foreign
// file).
absl::StatusOr<TrafficSummary> ParseTrafficFile(std::string_view text);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_TRAFFIC_FILE_H_
