// The traffic summary the level census leaves in a DB's directory for the
// advisor (sstfilter_sst --db): RocksDB's sampled reads live in the
// process that serves the Gets, which a reader of the directory (a
// secondary or read-only instance, another process) cannot see.
//
// A text file, kTrafficFileName, rewritten whole (a temporary file renamed
// over it) at most every kTrafficFileInterval while the census knows where
// a column family's lookups go:
//   sstfilter traffic 1
//   <file number> <share of its column family's Gets>
//   ...
// RocksDB ignores a file whose name it does not know; deleting it only
// loses the summary until the next one.
#ifndef SSTFILTER_TABLE_CENSUS_TRAFFIC_FILE_H_
#define SSTFILTER_TABLE_CENSUS_TRAFFIC_FILE_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace sstfilter {

inline constexpr char kTrafficFileName[] = "sstfilter-traffic";
inline constexpr std::chrono::seconds kTrafficFileInterval{10};

// Each table's share of its column family's Gets, by file number.
using TableShares = std::map<uint64_t, double>;

std::string FormatTrafficFile(const TableShares& shares);

// The shares a FormatTrafficFile text holds; InvalidArgument naming the
// line that is not one (a damaged or foreign file).
absl::StatusOr<TableShares> ParseTrafficFile(std::string_view text);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_TRAFFIC_FILE_H_
